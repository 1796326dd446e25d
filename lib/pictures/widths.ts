/**
 * The widths (in image pixels) Next's image optimiser may produce, and the
 * rule that makes them exact for the site's pictures. next.config.ts passes
 * them to `images`; components/picture.tsx picks from them. Next allows at
 * most 25 widths in each of its two lists.
 *
 * - A raster picture of fixed size (the logo, the promo, a slide on a phone)
 *   is drawn at a multiple of 8 px wide (16 from 208px), at most 320: its 2x
 *   file (16..640) is in the list, so a phone gets exactly the pixels it
 *   draws; a 1x screen gets the next multiple of 16.
 * - The benefits picture is as wide as the page minus the section's gutters:
 *   its 2x and 3x widths on the most common phones are in the list.
 * - Then tablets and desktops.
 */

const WIDTH_STEP = 16;
/** The widest fixed-size box (the header's promo). */
const FIXED_MAX_WIDTH = 320;

/**
 * The width (CSS px) a raster picture of fixed size is drawn at: down to a
 * multiple of 8 (of 16 from 208), so that its 2x file is in the list below.
 */
export function snapWidth(width: number): number {
  const step = width >= 208 ? 16 : 8;
  return Math.max(step, Math.floor(width / step) * step);
}
/** The sections' side padding, 1.25rem on each side (app/globals.css and the section styles). */
export const SECTION_GUTTERS = 40;
/** CSS widths of the phones most visitors use (360: most Android phones; 390, 430: iPhones). */
export const COMMON_PHONE_WIDTHS = [360, 375, 390, 412, 430] as const;
const LARGE_SCREENS = [828, 1080, 1200, 1920, 2048];

const range = (from: number, to: number, step: number) =>
  Array.from({ length: Math.floor((to - from) / step) + 1 }, (_, i) => from + i * step);
const unique = (list: number[]) => [...new Set(list)].sort((a, b) => a - b);

/** Every multiple of 16 up to 400: the 1x and 2x files of fixed-size pictures. */
export const IMAGE_SIZES = range(WIDTH_STEP, 400, WIDTH_STEP);

export const DEVICE_SIZES = unique([
  // The rest of the 2x files of fixed-size pictures (416..640).
  ...range(416, 2 * FIXED_MAX_WIDTH, 2 * WIDTH_STEP),
  ...COMMON_PHONE_WIDTHS.flatMap((phone) =>
    [2, 3].map((density) => density * (phone - SECTION_GUTTERS)),
  ),
  ...LARGE_SCREENS,
]);

export const ALLOWED_WIDTHS = unique([...IMAGE_SIZES, ...DEVICE_SIZES]);

/** The smallest allowed width of at least `width` (the largest allowed if none is). */
function allowedWidthFor(width: number): number {
  return (
    ALLOWED_WIDTHS.find((allowed) => allowed >= width) ?? ALLOWED_WIDTHS[ALLOWED_WIDTHS.length - 1]!
  );
}

/**
 * How wide a picture (or the box it is contained in) is drawn, from a
 * viewport width up: `vw` × the viewport's width + `px`, in CSS px. A list of
 * rules goes widest viewport first, as the `sizes` attribute does.
 */
export type SizeRule = { from: number; vw: number; px: number };

const round = (value: number) => Math.round(value * 100) / 100;

function ruleLength({ vw, px }: SizeRule, scale: number): string {
  if (vw === 0) return `${round(px * scale)}px`;
  const length = `${round(vw * 100)}vw ${px < 0 ? '-' : '+'} ${Math.abs(px)}px`;
  return scale === 1 ? `calc(${length})` : `calc((${length}) * ${round(scale)})`;
}

/** The `sizes` attribute for these rules, each width multiplied by `scale`. */
export function sizesAttribute(rules: readonly SizeRule[], scale = 1): string {
  return rules
    .map((rule) => (rule.from > 0 ? `(min-width: ${rule.from}px) ` : '') + ruleLength(rule, scale))
    .join(', ');
}

/** The widest viewport a rule is measured at, when it has no rule above it. */
const WIDEST_VIEWPORT = 1920;
const THINNING = 1.15;

/**
 * The widths worth offering for a picture drawn by these rules, for screens
 * of density 1 to 3: exact for what is drawn at a fixed width and on the
 * common phones, and a ladder about 15% apart in between. Nothing past the
 * file's own width, which the optimiser never enlarges.
 */
export function candidateWidths(
  rules: readonly SizeRule[],
  scale: number,
  fileWidth: number,
): number[] {
  const exact: number[] = [];
  const spans: Array<[number, number]> = [];
  rules.forEach((rule, index) => {
    const drawn = (viewport: number) => (rule.vw * viewport + rule.px) * scale;
    if (rule.vw === 0) {
      exact.push(...[1, 2, 3].map((density) => drawn(0) * density));
      return;
    }
    const to = index > 0 ? rules[index - 1]!.from - 1 : WIDEST_VIEWPORT;
    const from = Math.max(rule.from, 320);
    for (const phone of COMMON_PHONE_WIDTHS) {
      if (phone >= from && phone <= to)
        exact.push(...[2, 3].map((density) => drawn(phone) * density));
    }
    spans.push([drawn(from), drawn(to) * 2]);
  });
  const exactWidths = new Set(exact.map((width) => allowedWidthFor(Math.round(width))));
  const inSpan = (width: number) =>
    spans.some(([low, high]) => width >= low && width <= allowedWidthFor(high));
  const picked: number[] = [];
  for (const width of ALLOWED_WIDTHS) {
    const last = picked[picked.length - 1] ?? 0;
    if (exactWidths.has(width) || (inSpan(width) && width >= last * THINNING)) picked.push(width);
  }
  const ceiling = allowedWidthFor(fileWidth);
  return unique(picked.map((width) => Math.min(width, ceiling)));
}
