import type { CSSProperties } from 'react';

/** The brand's colours in the pictures Next draws at build time: the Open Graph card and the Apple icon. */
export const BRAND_COLOURS = { navy: '#0b3b60', teal: '#2dd4bf' } as const;

/** A box that fills the picture, laid out with flexbox, the one layout next/og's renderer knows. */
export const fillingBox = (style: CSSProperties): CSSProperties => ({
  width: '100%',
  height: '100%',
  display: 'flex',
  ...style,
});
