'use client';

import Autoplay from 'embla-carousel-autoplay';
import useEmblaCarousel, { type UseEmblaCarouselType } from 'embla-carousel-react';
import { useEffect, useState, type RefObject } from 'react';
import { AUTOPLAY_DELAY_MS } from './autoplay';

export type EmblaApi = NonNullable<UseEmblaCarouselType[1]>;

type Props = {
  /** The carousel's server-rendered viewport, already in the page. */
  viewportRef: RefObject<HTMLElement | null>;
  onApi: (api: EmblaApi | undefined) => void;
};

/**
 * Embla and its autoplay plugin, attached to a carousel that is already on
 * screen. Loaded on its own (see useEngine): the library reaches the browser
 * when the carousel comes near the viewport or the visitor touches, hovers or
 * focuses it, never with the first visit's JavaScript.
 */
export default function CarouselEngine({ viewportRef, onApi }: Props) {
  // Embla's own hover/focus/interaction stops are off: they cannot tell a
  // visitor's pause from a hover, and stopOnInteraction would stop for good
  // after one drag. The Carousel's holds decide.
  const [plugins] = useState(() => [
    Autoplay({
      delay: AUTOPLAY_DELAY_MS,
      playOnInit: false,
      stopOnInteraction: false,
      stopOnMouseEnter: false,
      stopOnFocusIn: false,
    }),
  ]);
  const [attach, api] = useEmblaCarousel({ loop: true, align: 'center' }, plugins);

  useEffect(() => {
    attach(viewportRef.current);
    return () => attach(null);
  }, [attach, viewportRef]);

  useEffect(() => {
    onApi(api);
    return () => onApi(undefined);
  }, [api, onApi]);

  return null;
}
