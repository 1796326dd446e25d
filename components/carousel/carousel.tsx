'use client';

import clsx from 'clsx';
import {
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
  type CSSProperties,
  type FocusEvent,
  type ReactNode,
} from 'react';
import { ErrorBoundary } from '@/components/error-boundary';
import { carouselCopy } from '@/lib/island-copy';
import { retryableImport } from '@/lib/retryable-import';
import { AUTOPLAY_DELAY_MS } from './autoplay';
import type CarouselEngine from './carousel-engine';
import type { EmblaApi } from './carousel-engine';
import styles from './carousel.module.css';

export { AUTOPLAY_DELAY_MS };

type Engine = typeof CarouselEngine;
let reported = false;

/**
 * Embla is fetched and started only when the carousel is about to be seen or
 * the visitor reaches for it (touch, hover, focus), never just because the
 * page is idle: a visitor who never scrolls to a carousel never pays for it.
 * The server HTML already shows the slides where Embla puts them, so nothing
 * moves when it starts. One fetch for both carousels; a failed one is
 * forgotten, so the next approach asks again.
 */
const loadEngine = retryableImport(
  () => import('./carousel-engine').then((module): Engine => module.default),
  () => {
    if (!reported) console.error('No se pudo cargar una parte de la página (motor del carrusel); los logotipos quedan en una fila desplazable.');
    reported = true;
  },
);

/** How close to the viewport a carousel starts (a phone scrolls fast). */
const NEAR_VIEWPORT = '600px 0px';

export type CarouselIcons = Record<'previous' | 'next' | 'pause' | 'play', ReactNode>;

type Props = {
  /** Rendered on the server (images, icons): this island ships only the behaviour. */
  slides: ReactNode[];
  icons: CarouselIcons;
  /** Spanish accessible name of the carousel. */
  label: string;
  /** Viewport width (px) from which 4 slides show instead of 1. */
  fourFrom: 400 | 700;
};

/**
 * Why autoplay may be held; it runs only while every reason is false. Nobody
 * sees a carousel that is off screen or in a hidden tab: it waits on the slide
 * it showed, and steps 5 s after it is seen again.
 */
type Holds = {
  paused: boolean;
  hovered: boolean;
  touched: boolean;
  keyboardFocus: boolean;
  offScreen: boolean;
  tabHidden: boolean;
};

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

function subscribeToReducedMotion(onChange: () => void) {
  const query = window.matchMedia(REDUCED_MOTION);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

function getReducedMotion() {
  return window.matchMedia(REDUCED_MOTION).matches;
}

function isKeyboardFocus(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true; // A browser without :focus-visible: treat focus as deliberate.
  }
}

export function Carousel({ slides, icons, label, fourFrom }: Props) {
  const trackId = useId();
  // Refs, not state: a state set from a ref callback re-renders both
  // carousels synchronously inside hydration's commit (a cascading update).
  const rootRef = useRef<HTMLElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const [wanted, setWanted] = useState(false);
  const [Engine, setEngine] = useState<Engine | null>(null);
  // The engine's chunk did not arrive: the row scrolls natively until a retry works.
  const [failed, setFailed] = useState(false);
  const [emblaApi, setEmblaApi] = useState<EmblaApi | undefined>(undefined);
  const want = useCallback(() => setWanted(true), []);
  const [selected, setSelected] = useState(0);
  const prefersReducedMotion = useSyncExternalStore(subscribeToReducedMotion, getReducedMotion, () => false);
  // Visitors who ask for reduced motion never get autoplay unless they press play.
  const [pausedByVisitor, setPausedByVisitor] = useState<boolean | null>(null);
  const paused = pausedByVisitor ?? prefersReducedMotion;
  const [playing, setPlaying] = useState(false);
  // Off screen until the observer first reports otherwise.
  const holds = useRef<Holds>({
    paused: false,
    hovered: false,
    touched: false,
    keyboardFocus: false,
    offScreen: true,
    tabHidden: false,
  });

  const sync = useCallback(() => {
    const autoplay = emblaApi?.plugins().autoplay;
    if (!autoplay) return;
    const shouldPlay = Object.values(holds.current).every((held) => !held);
    // play() restarts the timer, so call it only on a real change.
    if (shouldPlay && !autoplay.isPlaying()) autoplay.play();
    if (!shouldPlay && autoplay.isPlaying()) autoplay.stop();
  }, [emblaApi]);

  const hold = useCallback(
    (reason: keyof Holds, value: boolean) => {
      holds.current[reason] = value;
      sync();
    },
    [sync],
  );

  useEffect(() => hold('paused', paused), [hold, paused]);

  // Any part of the carousel in the real viewport (not the 600 px margin).
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) hold('offScreen', !last.isIntersecting);
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [hold]);

  // On window, not document: the event bubbles there after Embla's autoplay
  // has run its own visibilitychange listener (on the document), which
  // restarts whatever played before the tab was hidden; the holds speak last.
  useEffect(() => {
    const onVisibilityChange = () => hold('tabHidden', document.visibilityState === 'hidden');
    onVisibilityChange();
    window.addEventListener('visibilitychange', onVisibilityChange);
    return () => window.removeEventListener('visibilitychange', onVisibilityChange);
  }, [hold]);

  // Start when the carousel comes near the viewport (a touch, focus or hover
  // also starts it), so one who scrolls never waits for it, and one who never
  // scrolls to it never downloads it. After a failed fetch, only a fresh
  // approach (or a touch, focus or hover) tries again: the observer's first
  // report, of where the carousel already is, is skipped.
  useEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport || wanted) return;
    let skip = failed;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!skip && entries.some((entry) => entry.isIntersecting)) want();
        skip = false;
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(viewport);
    return () => observer.disconnect();
  }, [wanted, want, failed]);

  useEffect(() => {
    if (!wanted || Engine) return;
    let current = true;
    loadEngine().then(
      (loaded) => {
        if (!current) return;
        // A row the visitor scrolled by hand goes back to where Embla starts.
        if (viewportRef.current) viewportRef.current.scrollLeft = 0;
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
  }, [wanted, Engine]);

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap());
    const onPlay = () => setPlaying(true);
    const onStop = () => setPlaying(false);
    // A resize across the breakpoint re-initialises Embla and its plugins,
    // which comes back stopped: re-apply the holds.
    const onReInit = () => {
      onSelect();
      sync();
    };
    // The plugin restarts on pointerUp by itself; these listeners run after
    // it and keep a paused or hovered carousel still.
    const onPointerDown = () => hold('touched', true);
    const onPointerUp = () => hold('touched', false);

    emblaApi
      .on('select', onSelect)
      .on('reInit', onReInit)
      .on('pointerDown', onPointerDown)
      .on('pointerUp', onPointerUp)
      .on('autoplay:play', onPlay)
      .on('autoplay:stop', onStop);
    onSelect();
    sync();
    // The holds may already have started it before these listeners existed.
    if (emblaApi.plugins().autoplay?.isPlaying()) onPlay();
    return () => {
      emblaApi
        .off('select', onSelect)
        .off('reInit', onReInit)
        .off('pointerDown', onPointerDown)
        .off('pointerUp', onPointerUp)
        .off('autoplay:play', onPlay)
        .off('autoplay:stop', onStop);
    };
  }, [emblaApi, hold, sync]);

  // A click on a chevron or dot steps the carousel and starts a fresh 5 s wait.
  const step = useCallback(
    (move: 'prev' | 'next' | number) => {
      if (!emblaApi) return;
      if (move === 'prev') emblaApi.scrollPrev();
      else if (move === 'next') emblaApi.scrollNext();
      else emblaApi.scrollTo(move);
      emblaApi.plugins().autoplay?.reset();
    },
    [emblaApi],
  );

  const onFocus = (event: FocusEvent<HTMLElement>) => hold('keyboardFocus', isKeyboardFocus(event.target));
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) hold('keyboardFocus', false);
  };

  const total = slides.length;
  const style = { '--slide-count': total } as CSSProperties;

  return (
    <section
      ref={rootRef}
      className={clsx(styles.carousel, fourFrom === 400 ? styles.fourFrom400 : styles.fourFrom700)}
      style={style}
      aria-roledescription="carousel"
      aria-label={label}
      data-ready={emblaApi ? 'true' : undefined}
      data-engine={failed ? 'failed' : undefined}
      onFocus={(event) => {
        want();
        onFocus(event);
      }}
      onBlur={onBlur}
      onPointerEnter={want}
    >
      {Engine ? (
        <ErrorBoundary name="motor del carrusel" fallback={null}>
          <Engine viewportRef={viewportRef} onApi={setEmblaApi} />
        </ErrorBoundary>
      ) : null}
      <div
        className={styles.viewport}
        ref={viewportRef}
        onPointerEnter={(event) => event.pointerType === 'mouse' && hold('hovered', true)}
        onPointerLeave={(event) => event.pointerType === 'mouse' && hold('hovered', false)}
      >
        <div className={styles.track} id={trackId} aria-live={playing ? 'off' : 'polite'}>
          {slides.map((slide, index) => (
            <div
              key={index}
              className={styles.slide}
              role="group"
              aria-roledescription="slide"
              aria-label={carouselCopy.slideLabel(index + 1, total)}
            >
              {slide}
            </div>
          ))}
        </div>
      </div>
      {/* Outside Embla's root node, so a drag never swallows these clicks. The
          pause button comes first: it is the first control in tab order. */}
      <div className={styles.nav}>
        <button
          type="button"
          className={styles.toggle}
          aria-controls={trackId}
          aria-label={paused ? carouselCopy.play : carouselCopy.pause}
          title={paused ? carouselCopy.play : carouselCopy.pause}
          onClick={() => setPausedByVisitor(!paused)}
        >
          {paused ? icons.play : icons.pause}
        </button>
        <button
          type="button"
          className={styles.chevron}
          aria-controls={trackId}
          aria-label={carouselCopy.previous}
          onClick={() => step('prev')}
        >
          {icons.previous}
        </button>
        <div className={styles.dots}>
          {slides.map((_, index) => (
            <button
              key={index}
              type="button"
              className={styles.dot}
              aria-controls={trackId}
              aria-label={carouselCopy.goTo(index + 1, total)}
              aria-current={index === selected ? 'true' : undefined}
              onClick={() => step(index)}
            />
          ))}
        </div>
        <button
          type="button"
          className={styles.chevron}
          aria-controls={trackId}
          aria-label={carouselCopy.next}
          onClick={() => step('next')}
        >
          {icons.next}
        </button>
      </div>
    </section>
  );
}
