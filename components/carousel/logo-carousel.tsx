import { Icon } from '@/components/icon';
import { Picture, type Slot } from '@/components/picture';
import type { Slide } from '@/lib/content';
import { SECTION_GUTTERS } from '@/lib/pictures/widths';
import { Carousel, type CarouselIcons } from './carousel';
import styles from './carousel.module.css';

const icons: CarouselIcons = {
  previous: <Icon name="chevron-left" />,
  next: <Icon name="chevron-right" />,
  pause: <Icon name="pause" />,
  play: <Icon name="play" />,
};

/** A slide's side padding, 0.75rem on each side (carousel.module.css). */
const SLIDE_PADDING = 24;

/**
 * Each logo is contained in a 240x80 box (3:1 whatever its own shape) as wide
 * as its slide: a section is the page minus its gutters (at most 1152px), a
 * slide a quarter of it from `fourFrom` (the whole of it below), minus its
 * padding.
 */
function logoSlot(fourFrom: number): Slot {
  return {
    kind: 'box',
    box: { width: 240, height: 80 },
    widths: [
      { from: 1096, vw: 0, px: 240 },
      { from: fourFrom, vw: 0.25, px: -(SECTION_GUTTERS / 4 + SLIDE_PADDING) },
      { from: 0, vw: 0, px: 240 },
    ],
  };
}

/**
 * A carousel of logos. The images and icons are rendered here, on the
 * server; the client island only adds the behaviour.
 */
export function LogoCarousel({
  slides,
  label,
  fourFrom,
}: {
  slides: Slide[];
  label: string;
  fourFrom: 400 | 700;
}) {
  const slot = logoSlot(fourFrom);
  return (
    <Carousel
      label={label}
      fourFrom={fourFrom}
      icons={icons}
      slides={slides.map((slide, index) => (
        <span key={index} className={styles.frame}>
          <Picture picture={{ src: slide.img, alt: slide.alt }} slot={slot} />
        </span>
      ))}
    />
  );
}
