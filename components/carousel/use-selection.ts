import { useCallback, useEffect, useState } from 'react';
import type { EmblaApi } from './carousel-engine';

/** The slide Embla shows, and a way to move to another. */
export function useSelection(emblaApi: EmblaApi | undefined) {
  const [selected, setSelected] = useState(0);

  useEffect(() => {
    if (!emblaApi) return;
    const onSelect = () => setSelected(emblaApi.selectedScrollSnap());
    // A resize across the breakpoint re-initialises Embla.
    emblaApi.on('select', onSelect).on('reInit', onSelect);
    onSelect();
    return () => {
      emblaApi.off('select', onSelect).off('reInit', onSelect);
    };
  }, [emblaApi]);

  // A click on a chevron or dot also starts a fresh 5 s wait.
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

  return { selected, step };
}
