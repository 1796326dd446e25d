import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type FocusEvent,
  type PointerEvent,
  type RefObject,
} from 'react';
import type { EmblaApi } from './carousel-engine';

/**
 * Why autoplay may be held; it runs only while every reason is false. Nobody
 * sees a carousel that is off screen or in a hidden tab: it waits on its
 * slide, and steps 5 s after it is seen again.
 */
type Holds = {
  paused: boolean;
  hovered: boolean;
  touched: boolean;
  keyboardFocus: boolean;
  offScreen: boolean;
  tabHidden: boolean;
};

function isKeyboardFocus(element: Element): boolean {
  try {
    return element.matches(':focus-visible');
  } catch {
    return true; // A browser without :focus-visible: treat focus as deliberate.
  }
}

/**
 * Plays the carousel at `rootRef` while nothing holds it. Returns whether it
 * is playing, and the focus and hover handlers that hold it.
 */
export function useAutoplay(
  emblaApi: EmblaApi | undefined,
  rootRef: RefObject<HTMLElement | null>,
  paused: boolean,
) {
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

  // Any part of the carousel in the real viewport (not the near margin).
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const observer = new IntersectionObserver((entries) => {
      const last = entries[entries.length - 1];
      if (last) hold('offScreen', !last.isIntersecting);
    });
    observer.observe(root);
    return () => observer.disconnect();
  }, [hold, rootRef]);

  // On window, not document: the event reaches it after Embla's own listener
  // on the document restarts autoplay, so the holds speak last.
  useEffect(() => {
    const onVisibilityChange = () => hold('tabHidden', document.visibilityState === 'hidden');
    onVisibilityChange();
    window.addEventListener('visibilitychange', onVisibilityChange);
    return () => window.removeEventListener('visibilitychange', onVisibilityChange);
  }, [hold]);

  useEffect(() => {
    if (!emblaApi) return;
    const onPlay = () => setPlaying(true);
    const onStop = () => setPlaying(false);
    // Re-initialising (a resize across the breakpoint) leaves the plugin stopped.
    const onReInit = () => sync();
    // The plugin restarts on pointerUp by itself; these run after it and keep
    // a paused or hovered carousel still.
    const onPointerDown = () => hold('touched', true);
    const onPointerUp = () => hold('touched', false);

    emblaApi
      .on('reInit', onReInit)
      .on('pointerDown', onPointerDown)
      .on('pointerUp', onPointerUp)
      .on('autoplay:play', onPlay)
      .on('autoplay:stop', onStop);
    sync();
    // The holds may already have started it before these listeners existed.
    if (emblaApi.plugins().autoplay?.isPlaying()) onPlay();
    return () => {
      emblaApi
        .off('reInit', onReInit)
        .off('pointerDown', onPointerDown)
        .off('pointerUp', onPointerUp)
        .off('autoplay:play', onPlay)
        .off('autoplay:stop', onStop);
    };
  }, [emblaApi, hold, sync]);

  return {
    playing,
    /** For the carousel's root: keyboard focus inside holds it, a mouse click does not. */
    onFocus: (event: FocusEvent<HTMLElement>) =>
      hold('keyboardFocus', isKeyboardFocus(event.target)),
    onBlur: (event: FocusEvent<HTMLElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget)) hold('keyboardFocus', false);
    },
    /** For the slides' viewport: a mouse over them holds it. */
    onPointerEnter: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'mouse') hold('hovered', true);
    },
    onPointerLeave: (event: PointerEvent<HTMLElement>) => {
      if (event.pointerType === 'mouse') hold('hovered', false);
    },
  };
}
