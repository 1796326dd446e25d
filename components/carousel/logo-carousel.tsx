import { Icon } from '@/components/icon';
import { SvgImage } from '@/components/svg-image';
import type { Slide } from '@/lib/content';
import { Carousel, type CarouselIcons } from './carousel';

const icons: CarouselIcons = {
  previous: <Icon name="chevron-left" />,
  next: <Icon name="chevron-right" />,
  pause: <Icon name="pause" />,
  play: <Icon name="play" />,
};

/**
 * A carousel of logos. The images and icons are rendered here, on the
 * server; the client island only adds the behaviour.
 */
export function LogoCarousel({ slides, label, fourFrom }: { slides: Slide[]; label: string; fourFrom: 400 | 700 }) {
  return (
    <Carousel
      label={label}
      fourFrom={fourFrom}
      icons={icons}
      slides={slides.map((slide) => (
        <SvgImage key={slide.img} src={slide.img} alt={slide.alt} width={240} height={80} />
      ))}
    />
  );
}
