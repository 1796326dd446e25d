/** @jest-environment node */
import {
  ALLOWED_WIDTHS,
  candidateWidths,
  COMMON_PHONE_WIDTHS,
  DEVICE_SIZES,
  IMAGE_SIZES,
  SECTION_GUTTERS,
  sizesAttribute,
  snapWidth,
  type SizeRule,
} from './widths';

const BENEFITS: SizeRule[] = [
  { from: 1192, vw: 0, px: 556 },
  { from: 960, vw: 0.5, px: -40 },
  { from: 0, vw: 1, px: -40 },
];
const SLIDE: SizeRule[] = [
  { from: 1096, vw: 0, px: 240 },
  { from: 700, vw: 0.25, px: -34 },
  { from: 0, vw: 0, px: 240 },
];

describe('the widths the optimiser may produce', () => {
  it('fit Next’s limit of 25 per list, sorted, without repeats', () => {
    for (const list of [IMAGE_SIZES, DEVICE_SIZES]) {
      expect(list.length).toBeLessThanOrEqual(25);
      expect([...new Set(list)].sort((a, b) => a - b)).toEqual(list);
    }
  });

  it('hold the 2x file of every fixed-size picture, whatever width it is snapped to (up to 320px)', () => {
    for (let width = 1; width <= 320; width++) {
      const drawn = snapWidth(width);
      expect(drawn).toBeLessThanOrEqual(width < 8 ? 8 : width);
      expect(width - drawn).toBeLessThan(16);
      expect(ALLOWED_WIDTHS).toContain(2 * drawn);
    }
  });

  it('hold the 2x and 3x file of a full-width picture on the common phones', () => {
    for (const phone of COMMON_PHONE_WIDTHS) {
      expect(ALLOWED_WIDTHS).toContain(2 * (phone - SECTION_GUTTERS));
      expect(ALLOWED_WIDTHS).toContain(3 * (phone - SECTION_GUTTERS));
    }
  });
});

describe('candidateWidths', () => {
  it('offers a fixed-size picture exactly at 1x and 2x, and a 3x', () => {
    expect(candidateWidths([{ from: 0, vw: 0, px: 224 }], 1, 4000)).toEqual([224, 448, 700]);
  });

  it('offers a logo in a slide its exact width on a phone and on a wide screen, and a ladder in between', () => {
    const widths = candidateWidths(SLIDE, 1, 4000);
    expect(widths).toEqual(expect.arrayContaining([240, 480]));
    // 4 per view from 700px: the box is 141px at 700px, 240px at 1095px; at 1x and 2x.
    expect(Math.min(...widths)).toBeLessThanOrEqual(144);
    for (let i = 1; i < widths.length; i++) expect(widths[i]! / widths[i - 1]!).toBeLessThan(1.6);
  });

  it('scales with the share of its box a narrow logo takes', () => {
    expect(candidateWidths(SLIDE, 80 / 240, 4000)).toEqual(expect.arrayContaining([80, 160]));
  });

  it('offers the benefits picture exactly what each common phone draws, at 2x and 3x', () => {
    const widths = candidateWidths(BENEFITS, 1, 4000);
    for (const phone of COMMON_PHONE_WIDTHS) {
      expect(widths).toContain(2 * (phone - SECTION_GUTTERS));
      expect(widths).toContain(3 * (phone - SECTION_GUTTERS));
    }
  });

  it('never offers more than the file has: past its width, one candidate', () => {
    const widths = candidateWidths(BENEFITS, 1, 600);
    expect(Math.max(...widths)).toBe(608);
    expect(widths.filter((width) => width >= 600)).toHaveLength(1);
  });
});

describe('sizesAttribute', () => {
  it('writes the rules widest first, scaled by the picture’s share of its box', () => {
    expect(sizesAttribute(SLIDE)).toBe(
      '(min-width: 1096px) 240px, (min-width: 700px) calc(25vw - 34px), 240px',
    );
    expect(sizesAttribute(SLIDE, 0.5)).toBe(
      '(min-width: 1096px) 120px, (min-width: 700px) calc((25vw - 34px) * 0.5), 120px',
    );
    expect(sizesAttribute(BENEFITS)).toBe(
      '(min-width: 1192px) 556px, (min-width: 960px) calc(50vw - 40px), calc(100vw - 40px)',
    );
  });
});
