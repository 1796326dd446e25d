'use client';

import clsx from 'clsx';
import { useId, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { ErrorBoundary } from '@/components/error-boundary';
import { carouselCopy } from '@/lib/island-copy';
import { AUTOPLAY_DELAY_MS } from './autoplay';
import type { EmblaApi } from './carousel-engine';
import styles from './carousel.module.css';
import { useAutoplay } from './use-autoplay';
import { useEngine } from './use-engine';
import { useReducedMotion } from './use-reduced-motion';
import { useSelection } from './use-selection';

export { AUTOPLAY_DELAY_MS };

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

export function Carousel({ slides, icons, label, fourFrom }: Props) {
  const trackId = useId();
  // Refs, not state: a state set from a ref callback re-renders both
  // carousels synchronously inside hydration's commit.
  const rootRef = useRef<HTMLElement>(null);
  const viewportRef = useRef<HTMLDivElement>(null);
  const [emblaApi, setEmblaApi] = useState<EmblaApi | undefined>(undefined);
  // Visitors who ask for reduced motion never get autoplay unless they press play.
  const prefersReducedMotion = useReducedMotion();
  const [pausedByVisitor, setPausedByVisitor] = useState<boolean | null>(null);
  const paused = pausedByVisitor ?? prefersReducedMotion;
  // Called in this order so their effects run as Embla expects: the slide is
  // read before autoplay is synced, and on-screen is observed before "near".
  const { selected, step } = useSelection(emblaApi);
  const autoplay = useAutoplay(emblaApi, rootRef, paused);
  const { Engine, failed, want } = useEngine(viewportRef);

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
        autoplay.onFocus(event);
      }}
      onBlur={autoplay.onBlur}
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
        onPointerEnter={autoplay.onPointerEnter}
        onPointerLeave={autoplay.onPointerLeave}
      >
        <div className={styles.track} id={trackId} aria-live={autoplay.playing ? 'off' : 'polite'}>
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
