import { getImageProps, type StaticImageData } from 'next/image';
import type { PictureContent } from '@/lib/content';
import { candidateWidths, sizesAttribute, snapWidth, type SizeRule } from '@/lib/pictures/widths';

type Box = { width: number; height: number };

/**
 * Where a picture is drawn:
 * - `box`: contained in a box of this size (CSS px), centred, never stretched.
 *   With `widths`, the box is as wide as they say (at most `box.width`) and
 *   keeps its shape; without, it is that size wherever it shows (`media`).
 * - `column`: as wide as its column (the rules), in the file's own shape.
 */
export type Slot =
  | { kind: 'box'; box: Box; widths?: readonly SizeRule[]; media?: string }
  | { kind: 'column'; widths: readonly SizeRule[] };

// The image shown below `media` (never displayed there): a 1x1 transparent GIF, no request.
const NOTHING = 'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * Width and height the picture is drawn at, contained in `box` (a raster's width snapped to the optimiser's widths).
 */
function containedSize(file: Box, box: Box, raster: boolean): Box {
  const scale = Math.min(box.width / file.width, box.height / file.height);
  const exact = file.width * scale;
  const width = raster ? snapWidth(exact) : Math.round(exact);
  return { width, height: Math.max(1, Math.round((width * file.height) / file.width)) };
}

/** The optimiser's address for the file at one width (Next's own loader, via getImageProps). */
function optimisedUrl(src: StaticImageData, width: number): string {
  const { srcSet } = getImageProps({
    src,
    alt: '',
    width,
    height: Math.round((width * src.height) / src.width),
  }).props;
  const url = srcSet?.split(' ', 1)[0] ?? '';
  // Next rounds a width it does not allow up to one it does: the picture would get a bigger file than it asked for.
  if (!url.includes(`w=${width}&`))
    throw new Error(
      `Picture: ${width} px is not among next.config.ts's image widths (lib/pictures/widths.ts)`,
    );
  return url;
}

/**
 * The `srcSet`, `sizes` and fallback `src` of a raster the optimiser serves, drawn by `rules` at `share` of their
 * width.
 */
function optimisedSources(file: StaticImageData, rules: readonly SizeRule[], share: number) {
  const candidates = candidateWidths(rules, share, file.width).map((width) => ({
    width,
    url: optimisedUrl(file, width),
  }));
  return {
    srcSet: candidates.map(({ width, url }) => `${url} ${width}w`).join(', '),
    sizes: sizesAttribute(rules, share),
    src: candidates[candidates.length - 1]!.url,
  };
}

/**
 * Every picture on the site, rendered on the server only. SVG is sent as it is;
 * a raster goes through Next's optimiser (AVIF or WebP), its `srcSet` offering
 * the widths it is drawn at. Width and height come from the file, so its box is
 * reserved before it arrives; `eager` (first screen) loads at once, high priority.
 */
export function Picture({
  picture,
  slot,
  className,
  eager = false,
}: {
  picture: PictureContent;
  slot: Slot;
  className?: string;
  eager?: boolean;
}) {
  const file = picture.src;
  const raster = !/\.svg$/i.test(file.src);
  const drawn =
    slot.kind === 'box'
      ? containedSize(file, slot.box, raster)
      : { width: file.width, height: file.height };
  // How much of its box's width the picture takes (a box narrower than its sides' ratio leaves room on the sides).
  const share = slot.kind === 'box' ? drawn.width / slot.box.width : 1;
  const rules: readonly SizeRule[] =
    slot.kind === 'column'
      ? slot.widths
      : (slot.widths ?? [{ from: 0, vw: 0, px: slot.box.width }]);

  // With `images.unoptimized` (next.config.ts) Next gives no srcSet: the file is sent as it is.
  const optimised = raster && Boolean(getImageProps({ src: file, alt: '' }).props.srcSet);
  const { srcSet, sizes, src } = optimised
    ? optimisedSources(file, rules, share)
    : { srcSet: undefined, sizes: undefined, src: file.src };

  // Only the attributes that apply: every one is written twice, in the HTML and in the page's RSC data.
  const share100 = Math.round(share * 10000) / 100;
  const img = {
    width: drawn.width,
    height: drawn.height,
    ...(className && { className }),
    // In a box whose width follows the page, a picture narrower than the box's shape keeps its share of it.
    ...(slot.kind === 'box' &&
      slot.widths &&
      share100 < 100 && { style: { width: `${share100}%` } }),
    loading: eager ? ('eager' as const) : ('lazy' as const),
    ...(eager && { fetchPriority: 'high' as const }),
    decoding: 'async' as const,
  };

  if (slot.kind === 'box' && slot.media) {
    return (
      <picture>
        <source
          media={slot.media}
          srcSet={srcSet ?? src}
          {...(sizes && { sizes })}
          width={drawn.width}
          height={drawn.height}
        />
        <img {...img} alt={picture.alt} src={NOTHING} />
      </picture>
    );
  }
  // next/image is client code; getImageProps gives the same files.
  // eslint-disable-next-line @next/next/no-img-element
  return <img {...img} alt={picture.alt} {...(srcSet && { srcSet, sizes })} src={src} />;
}
