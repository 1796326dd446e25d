import { ICONS, iconSprite } from './icons';

describe('iconSprite', () => {
  const sprite = iconSprite();

  it('has one symbol with a viewBox and drawn paths for every icon', () => {
    for (const name of Object.keys(ICONS)) {
      const symbol =
        sprite.match(new RegExp(`<symbol id="${name}" viewBox="[\\d. ]+">(.*?)</symbol>`))?.[1] ??
        '';
      expect([name, /<path d="M[^"]{20,}"/.test(symbol)]).toEqual([name, true]);
    }
    expect(sprite.match(/<symbol /g)).toHaveLength(Object.keys(ICONS).length);
  });

  it('covers the spec icon set', () => {
    const spec = [
      'twitter',
      'facebook',
      'whatsapp',
      'envelope-open',
      'phone',
      'map-marker-alt',
      'search',
      'paper-plane',
      'pencil-ruler',
      'compact-disc',
      'chevron-left',
      'chevron-right',
    ];
    expect(Object.keys(ICONS)).toEqual(expect.arrayContaining(spec));
  });

  it('is a standalone SVG document', () => {
    expect(sprite.startsWith('<svg xmlns="http://www.w3.org/2000/svg">')).toBe(true);
    expect(sprite.endsWith('</svg>')).toBe(true);
  });
});
