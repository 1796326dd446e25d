import { useCallback, useEffect, useState, type RefObject } from 'react';
import { retryableImport } from '@/lib/browser/retryable-import';
import type CarouselEngine from './carousel-engine';
import { useNearViewport } from './use-near-viewport';

export type Engine = typeof CarouselEngine;

let reported = false;

/**
 * One fetch shared by every carousel; a failed one is forgotten so the next
 * approach asks again. Reported once: the row still scrolls natively.
 */
const loadEngine = retryableImport(
  () => import('./carousel-engine').then((module): Engine => module.default),
  () => {
    if (!reported)
      console.error(
        'No se pudo cargar una parte de la página (motor del carrusel); los logotipos quedan en una fila desplazable.',
      );
    reported = true;
  },
);

/**
 * Fetches Embla only when the carousel comes near the viewport or `want` is
 * called (touch, hover, focus), never because the page is idle: a visitor who
 * never scrolls to a carousel never pays for it. The server HTML already
 * places the slides where Embla puts them, so nothing moves when it starts.
 */
export function useEngine(viewportRef: RefObject<HTMLDivElement | null>) {
  const [wanted, setWanted] = useState(false);
  const [Engine, setEngine] = useState<Engine | null>(null);
  // The chunk did not arrive: the row scrolls natively until a retry works.
  const [failed, setFailed] = useState(false);
  const want = useCallback(() => setWanted(true), []);

  // After a failure, only a fresh approach (or a touch, focus or hover)
  // retries, not the report of where the carousel already is.
  useNearViewport(viewportRef, !wanted, failed, want);

  useEffect(() => {
    if (!wanted || Engine) return;
    let current = true;
    loadEngine().then(
      (loaded) => {
        if (!current) return;
        // A row the visitor scrolled by hand goes back to where Embla starts.
        const viewport = viewportRef.current;
        if (viewport) viewport.scrollLeft = 0;
        setFailed(false);
        setEngine(() => loaded);
      },
      () => {
        if (!current) return;
        setFailed(true);
        setWanted(false);
      },
    );
    return () => {
      current = false;
    };
  }, [wanted, Engine, viewportRef]);

  return { Engine, failed, want };
}
