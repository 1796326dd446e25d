import { expect } from '@playwright/test';

/**
 * How many times the page's inlined CSS is in its HTML: samples of the head's <style>, counted as they are and as a
 * script of flight data escapes them. Once is scripts/build/css-once.ts at work; twice is Next's copy come back
 * (vercel/next.js#98079).
 */
export function expectCssOnce(html: string) {
  const css = /<style data-precedence="next"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  expect(css.length, 'the page inlines its CSS').toBeGreaterThan(5_000);
  for (const at of [0, Math.floor(css.length / 2), css.length - 200]) {
    const piece = css.slice(at, at + 200);
    const escaped = JSON.stringify(piece)
      .slice(1, -1)
      .replace(/&/g, '\\u0026')
      .replace(/>/g, '\\u003e')
      .replace(/</g, '\\u003c');
    const count = (text: string) => html.split(text).length - 1;
    const times = count(piece) + (escaped === piece ? 0 : count(escaped));
    expect(times, `CSS at ${at} of ${css.length}: ${piece.slice(0, 60)}…`).toBe(1);
  }
}
