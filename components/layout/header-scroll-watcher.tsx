'use client';

import { useEffect } from 'react';

/** Past this offset the header shrinks (spec: 120 px). */
export const SCROLL_THRESHOLD = 120;

/**
 * The header's only client code. It flips `data-scrolled` on the server-rendered
 * header straight in the DOM, and only when the state changes, so scrolling
 * never re-renders React; CSS does the 100px -> 75px transition.
 */
export function HeaderScrollWatcher({ headerId }: { headerId: string }) {
  useEffect(() => {
    const header = document.getElementById(headerId);
    if (!header) return;

    const update = () => {
      const scrolled = window.scrollY > SCROLL_THRESHOLD ? 'true' : 'false';
      if (header.dataset.scrolled !== scrolled) header.dataset.scrolled = scrolled;
    };

    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [headerId]);

  return null;
}
