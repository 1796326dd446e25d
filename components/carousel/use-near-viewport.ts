import { useEffect, type RefObject } from 'react';

/** How close to the viewport counts as near (a phone scrolls fast). */
const NEAR_VIEWPORT = '600px 0px';

/**
 * Calls `onNear` when the element comes near the viewport, while `watching`.
 * With `skipFirst`, the observer's first report (where the element already
 * is) is ignored, so only a fresh approach counts.
 */
export function useNearViewport(
  ref: RefObject<HTMLElement | null>,
  watching: boolean,
  skipFirst: boolean,
  onNear: () => void,
) {
  useEffect(() => {
    const element = ref.current;
    if (!element || !watching) return;
    let skip = skipFirst;
    const observer = new IntersectionObserver(
      (entries) => {
        if (!skip && entries.some((entry) => entry.isIntersecting)) onNear();
        skip = false;
      },
      { rootMargin: NEAR_VIEWPORT },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, watching, skipFirst, onNear]);
}
