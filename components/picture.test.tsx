import type { StaticImageData } from 'next/image';
import { renderToStaticMarkup } from 'react-dom/server';
import { DEVICE_SIZES, IMAGE_SIZES } from '@/lib/pictures/widths';
import { Picture, type Slot } from './picture';

// getImageProps reads next.config.ts's image settings: next/jest passes them on.
const file = (src: string, width: number, height: number): StaticImageData => ({
  src,
  width,
  height,
});
const LOGO: Slot = { kind: 'box', box: { width: 240, height: 56 } };
const SLIDE: Slot = {
  kind: 'box',
  box: { width: 240, height: 80 },
  widths: [
    { from: 1096, vw: 0, px: 240 },
    { from: 700, vw: 0.25, px: -34 },
    { from: 0, vw: 0, px: 240 },
  ],
};

function render(element: React.ReactElement): HTMLElement {
  const host = document.createElement('div');
  host.innerHTML = renderToStaticMarkup(element);
  return host;
}
const widthsOf = (img: Element) =>
  (img.getAttribute('srcset') ?? '')
    .split(', ')
    .map((entry) => Number(entry.split(' ')[1]?.slice(0, -1)));

it('serves an SVG as it is, at the size it is drawn', () => {
  const img = render(
    <Picture
      picture={{ src: file('/_next/static/media/logo.1.svg', 220, 56), alt: 'Logo' }}
      slot={LOGO}
    />,
  ).querySelector('img')!;
  expect(img.getAttribute('src')).toBe('/_next/static/media/logo.1.svg');
  expect(img.hasAttribute('srcset')).toBe(false);
  expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['220', '56']);
  expect(img.getAttribute('alt')).toBe('Logo');
  expect(img.getAttribute('loading')).toBe('lazy');
  expect(img.hasAttribute('fetchpriority')).toBe(false);
});

it('sends a raster through the optimiser with the exact 1x and 2x widths of a fixed-size box', () => {
  // A 4:1 PNG in a 240x56 box: 224x56.
  const img = render(
    <Picture
      picture={{ src: file('/_next/static/media/logo.2.png', 1200, 300), alt: 'Logo' }}
      slot={LOGO}
      eager
    />,
  ).querySelector('img')!;
  expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['224', '56']);
  expect(img.getAttribute('sizes')).toBe('224px');
  expect(widthsOf(img)).toEqual([224, 448, 700]);
  expect(img.getAttribute('srcset')).toContain(
    `/_next/image?url=${encodeURIComponent('/_next/static/media/logo.2.png')}&w=448&q=75 448w`,
  );
  expect(img.getAttribute('loading')).toBe('eager');
  expect(img.getAttribute('fetchpriority')).toBe('high');
});

it('contains a logo of any shape in its box without stretching it', () => {
  for (const [width, height] of [
    [900, 300],
    [500, 500],
    [300, 900],
    [2000, 100],
  ] as const) {
    const img = render(
      <Picture
        picture={{ src: file('/_next/static/media/x.png', width, height), alt: 'x' }}
        slot={SLIDE}
      />,
    ).querySelector('img')!;
    const drawn = {
      width: Number(img.getAttribute('width')),
      height: Number(img.getAttribute('height')),
    };
    expect(drawn.width).toBeLessThanOrEqual(240);
    expect(drawn.height).toBeLessThanOrEqual(80);
    expect(drawn.width % 8).toBe(0);
    expect(Math.abs(drawn.width / drawn.height - width / height) / (width / height)).toBeLessThan(
      0.05,
    );
  }
});

it('gives a narrow logo its share of the slide’s box, in its width and in sizes', () => {
  const img = render(
    <Picture
      picture={{ src: file('/_next/static/media/sq.png', 500, 500), alt: 'Cuadrado' }}
      slot={SLIDE}
    />,
  ).querySelector('img')!;
  expect(img.getAttribute('style')).toBe('width:33.33%');
  expect(img.getAttribute('sizes')).toBe(
    '(min-width: 1096px) 80px, (min-width: 700px) calc((25vw - 34px) * 0.33), 80px',
  );
  expect(widthsOf(img)).toEqual(expect.arrayContaining([80, 160]));
});

it('never asks for more than the file has', () => {
  const img = render(
    <Picture
      picture={{ src: file('/_next/static/media/small.png', 200, 50), alt: 'Chico' }}
      slot={LOGO}
    />,
  ).querySelector('img')!;
  expect(Math.max(...widthsOf(img))).toBe(208);
});

it('shows a picture only from a width on with <picture>: below, an inline blank that costs no request', () => {
  const html = render(
    <Picture
      picture={{ src: file('/_next/static/media/promo.3.png', 1200, 224), alt: 'Promo' }}
      slot={{ ...LOGO, box: { width: 320, height: 56 }, media: '(min-width: 768px)' }}
      eager
    />,
  );
  const source = html.querySelector('picture > source')!;
  const img = html.querySelector('picture > img')!;
  expect(source.getAttribute('media')).toBe('(min-width: 768px)');
  expect(source.getAttribute('srcset')).toContain('/_next/image?url=');
  expect(img.getAttribute('src')).toMatch(/^data:image\/gif;base64,/);
  expect(img.getAttribute('alt')).toBe('Promo');
  expect(img.getAttribute('fetchpriority')).toBe('high');
});

it('lists every width it offers among the optimiser’s', () => {
  const img = render(
    <Picture
      picture={{ src: file('/_next/static/media/photo.jpg', 2000, 1400), alt: 'Foto' }}
      slot={{ kind: 'column', widths: [{ from: 0, vw: 1, px: -40 }] }}
    />,
  ).querySelector('img')!;
  for (const width of widthsOf(img)) expect([...IMAGE_SIZES, ...DEVICE_SIZES]).toContain(width);
  expect([img.getAttribute('width'), img.getAttribute('height')]).toEqual(['2000', '1400']);
  expect(widthsOf(img)).toContain(700);
});
