/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import postcss from 'postcss';
import { cssLater, cssLaterInBuild, laterClasses, onlyLater, splitCss } from './css-later';

/*
 * A prerendered page as Next writes it with inlineCss and css-once has left it: its CSS in one <style> in the head,
 * a hero at the top, and sections marked .below-fold under it.
 */
const CSS =
  '@font-face{font-family:m;src:url(/m.woff2)}' +
  ':root{--primary:#0b3b60}' +
  '.hero{color:#fff}' +
  '.title,h3{font-weight:800}' +
  '.title{margin:0 0 2rem}' +
  '.below-fold{content-visibility:auto}' +
  '.benefits .list{padding:4rem}' +
  '.card{border-radius:1rem}' +
  '.card:hover .icon{transform:rotateY(180deg)}' +
  '.card+.hero{margin:0}' +
  '.shared{gap:1rem}' +
  '.later-state[data-engine] .card{overflow:auto}' +
  '.quote:before{content:"{ }"}' +
  '@media (min-width:800px){.grid{display:grid}.hero{padding:4rem}}' +
  '@keyframes spin{to{transform:rotate(360deg)}}';
const MARKUP =
  '<body><header class="hero"><h1 class="shared">Hola</h1><img class="logo" src="/l.svg" alt="a &gt; b"/></header>' +
  '<main><section class="benefits below-fold"><p class="list">Rápido</p></section>' +
  '<section class="services below-fold"><h2 class="title">Servicios</h2>' +
  '<ul class="grid"><li class="card"><span class="icon"><svg><use href="#x"/></svg></span>' +
  '<p class="quote shared">Uno<br/>dos</p></li></ul></section></main>' +
  '<footer class="footer below-fold"><p class="rights">©</p></footer>' +
  '<script>self.__next_f.push([1,"<div class=\\"hero card\\">"])</script></body>';
const page = (css = CSS, markup = MARKUP) =>
  '<!DOCTYPE html><html lang="es-MX"><head><meta charSet="utf-8"/>' +
  `<style data-precedence="next" data-href="/_next/static/chunks/a1.css /_next/static/chunks/b2.css">${css}</style>` +
  `</head>${markup}</html>`;

describe('laterClasses', () => {
  it('keeps the classes that are only ever inside a below-the-fold element', () => {
    expect([...laterClasses(page())].sort()).toEqual([
      'card',
      'footer',
      'grid',
      'icon',
      'quote',
      'rights',
      'services',
      'title',
    ]);
  });

  it('leaves out a class used above the fold as well, the marker itself, and what only a script writes', () => {
    const later = laterClasses(page());
    for (const name of ['shared', 'hero', 'logo', 'below-fold', 'later-state'])
      expect(later).not.toContain(name);
  });

  it('leaves out the first section under the fold, which a tall screen shows at once', () => {
    const later = laterClasses(page());
    for (const name of ['benefits', 'list']) expect(later).not.toContain(name);
  });

  it('refuses markup that closes an element it never opened', () => {
    expect(() => laterClasses(page(CSS, '<body></p></body>'))).toThrow('with nothing open');
  });
});

describe('onlyLater', () => {
  const later = new Set(['card', 'icon']);
  it('takes a selector that names a later class outside parentheses, whatever its other parts', () => {
    expect(onlyLater(['.card:hover .icon'], later)).toBe(true);
    expect(onlyLater(['.x[data-engine] .card'], later)).toBe(true);
    expect(onlyLater(['.card[aria-current=true]:after'], later)).toBe(true);
  });
  it('refuses a list with one selector that could match elsewhere, a sibling, or a class inside :not()', () => {
    expect(onlyLater(['.card', 'h3'], later)).toBe(false);
    expect(onlyLater(['.card+.hero'], later)).toBe(false);
    expect(onlyLater(['.card~p'], later)).toBe(false);
    expect(onlyLater([':not(.card) p'], later)).toBe(false);
  });
});

describe('splitCss', () => {
  const later = laterClasses(page());
  const split = splitCss(CSS, later);

  it('moves the rules that can only match below the fold, media queries split alike', () => {
    expect(split.later).toBe(
      '.title{margin:0 0 2rem}.card{border-radius:1rem}.card:hover .icon{transform:rotateY(180deg)}' +
        '.later-state[data-engine] .card{overflow:auto}.quote:before{content:"{ }"}' +
        '@media (min-width:800px){.grid{display:grid}}',
    );
  });

  it('keeps everything else, in its order, at-rules whole', () => {
    expect(split.now).toBe(
      '@font-face{font-family:m;src:url(/m.woff2)}:root{--primary:#0b3b60}.hero{color:#fff}' +
        '.title,h3{font-weight:800}.below-fold{content-visibility:auto}.benefits .list{padding:4rem}' +
        '.card+.hero{margin:0}' +
        '.shared{gap:1rem}@media (min-width:800px){.hero{padding:4rem}}@keyframes spin{to{transform:rotate(360deg)}}',
    );
  });

  it('loses no rule and adds none', () => {
    const rules = (css: string) => {
      let count = 0;
      postcss.parse(css).walkRules(() => void count++);
      return count;
    };
    expect(rules(split.now) + rules(split.later)).toBe(rules(CSS));
  });
});

describe('cssLater', () => {
  it('moves the later rules into a stylesheet named by its content, loaded after the first paint', () => {
    const { html, sheet } = cssLater(page());
    expect(sheet).toEqual({
      name: expect.stringMatching(/^[0-9a-f]{16}\.css$/),
      css: splitCss(CSS, laterClasses(page())).later,
      beside: 'a1.css',
    });
    const href = `/_next/static/chunks/${sheet!.name}`;
    expect(html).toContain(
      `<link rel="stylesheet" href="${href}" media="print" onload="this.media='all'" data-css-later=""/>` +
        `<noscript><link rel="stylesheet" href="${href}"/></noscript></head>`,
    );
    expect(html).not.toContain('.card{border-radius:1rem}');
    expect(html).toContain('.hero{color:#fff}');
    expect(html.replace(/<head>[\s\S]*<\/head>/, '')).toBe(
      page().replace(/<head>[\s\S]*<\/head>/, ''),
    );
  });

  it("keeps CSS that holds a replacement pattern ($& or $') as it is", () => {
    const css = `.hero:after{content:"$&"}.hero:before{content:"$'"}${CSS}`;
    const { html } = cssLater(page(css));
    const styles = [...html.matchAll(/<style[^>]*>([^<]*)<\/style>/g)].map((match) => match[1]);
    expect(styles).toEqual([splitCss(css, laterClasses(page(css))).now]);
    expect(styles[0]).toContain(`.hero:after{content:"$&"}.hero:before{content:"$'"}`);
  });

  it('leaves alone a page it rewrote already, one with nothing below the fold, and one without inlined CSS', () => {
    const once = cssLater(page()).html;
    expect(cssLater(once)).toEqual({ html: once, sheet: null });
    const flat = page(
      CSS,
      '<body><p class="hero">Hola</p><p class="card below-fold">Uno</p></body>',
    );
    expect(cssLater(flat)).toEqual({ html: flat, sheet: null });
    const bare = '<!DOCTYPE html><html><head></head><body><p>Hola</p></body></html>';
    expect(cssLater(bare)).toEqual({ html: bare, sheet: null });
  });
});

describe('cssLaterInBuild', () => {
  let dist: string;
  beforeEach(() => {
    dist = mkdtempSync(path.join(tmpdir(), 'css-later-'));
  });
  afterEach(() => rmSync(dist, { recursive: true, force: true }));

  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
    writeFileSync(path.join(dist, file), text);
  };

  it("writes the stylesheet beside Next's chunk, for `next start` and in a deployment adapter's output", () => {
    write('static/chunks/a1.css', CSS);
    write('server/app/index.html', page());
    // Vercel's adapter copies the static files and the page during `next build`; Vercel deploys these copies.
    write('output/static/_next/static/chunks/a1.css', CSS);
    write('output/functions/index.prerender-fallback.html', page());

    const result = cssLaterInBuild(dist);
    expect(result.map((entry) => entry.page).sort()).toEqual([
      'output/functions/index.prerender-fallback.html',
      'server/app/index.html',
    ]);
    for (const entry of result) expect(entry.movedBytes).toBeGreaterThan(0);
    const { sheet } = cssLater(page());
    for (const folder of ['static/chunks', 'output/static/_next/static/chunks'])
      expect(readFileSync(path.join(dist, folder, sheet!.name), 'utf8')).toBe(sheet!.css);
    expect(readFileSync(path.join(dist, 'server/app/index.html'), 'utf8')).toBe(
      cssLater(page()).html,
    );
    // Run again (a build's step repeated): nothing changes.
    expect(cssLaterInBuild(dist).every((entry) => entry.movedBytes === 0)).toBe(true);
  });

  it("fails the build, naming the page, when the page's chunk is not where it is served from", () => {
    // An adapter's copy of the page, without the static files copied beside it: Vercel would serve no stylesheet.
    write('static/chunks/a1.css', CSS);
    write('output/functions/index.prerender-fallback.html', page());
    expect(() => cssLaterInBuild(dist)).toThrow(
      'css-later: output/functions/index.prerender-fallback.html: its stylesheet a1.css is not in output/',
    );
    rmSync(path.join(dist, 'output'), { recursive: true });
    rmSync(path.join(dist, 'static'), { recursive: true });
    write('server/app/index.html', page());
    expect(() => cssLaterInBuild(dist)).toThrow(
      'css-later: server/app/index.html: its stylesheet a1.css is not in static/',
    );
    expect(readdirSync(path.join(dist, 'server/app'))).toEqual(['index.html']);
    expect(readFileSync(path.join(dist, 'server/app/index.html'), 'utf8')).toBe(page());
  });
});
