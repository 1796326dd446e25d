// The CSS of what a phone shows only after scrolling, out of the first paint's way. With `experimental.inlineCss`
// every rule of a page is inlined in its head, about 12 kB for `/` (3.5 kB of its 12.7 kB gzipped), and about half
// of them style the sections below the fold, the ones the markup marks `.below-fold` (app/(sitio)/globals.css).
//
// Run after css-once (scripts/build/after-next-build.ts, and the tests' builds in test-support/harness.ts), this
// moves out of each prerendered page's <style> the rules that can only match inside those sections. They go to a
// stylesheet of their own, named by its content, beside Next's CSS chunks, which the page loads without blocking its
// first paint: media="print", switched to all once it has loaded, and a plain <link> in <noscript> for a browser
// without scripts. React adopts the head's <style> by its data-href and never reads its text again (css-once.ts), so
// the shorter text hydrates as the full one did. The rules are read with postcss.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import postcss, { type AtRule, type Rule } from 'postcss';
import { prerenderedPages } from './css-once';

/** The class the sections below the fold carry (app/(sitio)/globals.css gives it content-visibility). */
export const BELOW_FOLD = 'below-fold';
/** The head's stylesheet, as Next inlines it: the chunks' addresses in data-href, their text inside. */
const HEAD_STYLE = /(<style data-precedence="next" data-href="([^"]+)">)([\s\S]*?)(<\/style>)/;
/** What marks a page this step has rewritten: the <link> it adds. */
const LATER_LINK = 'data-css-later';
/** Elements that never have a closing tag in HTML. */
const VOID = new Set('area base br col embed hr img input link meta source track wbr'.split(' '));
/** Elements whose content is not markup: their text never opens or closes an element. */
const RAW_TEXT = /<(script|style|textarea|title|noscript|template)\b[^>]*>[\s\S]*?<\/\1>/g;

/**
 * The classes that, in this page's markup, are only ever inside a `.below-fold` element other than the first. A class
 * the markup does not use at all (a state only a script sets) is not among them: its rules stay in the head.
 */
export function laterClasses(html: string): Set<string> {
  // The body, from its opening tag to its closing one: the head and <html> are not the page's content.
  const body = /<body[\s\S]*<\/body>/.exec(html)?.[0] ?? '';
  const markup = body.replace(RAW_TEXT, '');
  const onlyBelow = new Map<string, boolean>();
  // For each element open around the current tag: whether it, or one around it, is below the fold.
  const open: boolean[] = [];
  let seenFirst = false;
  for (const [, closing, name, attributes, selfClosing] of markup.matchAll(
    /<(\/?)([a-zA-Z][\w:-]*)((?:[^>"]|"[^"]*")*?)(\/?)>/g,
  )) {
    if (closing) {
      if (open.pop() === undefined)
        throw new Error(`the markup closes </${name}> with nothing open`);
      continue;
    }
    const classes = /\sclass="([^"]*)"/.exec(attributes!)?.[1]?.split(/\s+/).filter(Boolean) ?? [];
    let below = open.at(-1) ?? false;
    if (!below && classes.includes(BELOW_FOLD)) {
      // The first section under the fold is in view at once on a screen taller than about 1,000 px (a desktop's
      // 1920 x 1080): it keeps its rules in the head, or it would be drawn without them and then move.
      below = seenFirst;
      seenFirst = true;
    }
    for (const className of classes)
      onlyBelow.set(className, (onlyBelow.get(className) ?? true) && below);
    if (!selfClosing && !VOID.has(name!.toLowerCase())) open.push(below);
  }
  // The marker itself stays: its content-visibility is what lets the browser skip those sections at first.
  return new Set(
    [...onlyBelow]
      .filter(([className, only]) => only && className !== BELOW_FOLD)
      .map(([className]) => className),
  );
}

/**
 * Whether every selector of a rule can only match inside a below-the-fold element: each names, outside any
 * parentheses, a class of `later`, and none reaches a sibling (+, ~), which could be outside.
 */
export function onlyLater(selectors: string[], later: Set<string>): boolean {
  return selectors.every((selector) => {
    const outside = selector.replace(/\([^()]*\)/g, '()').replace(/\([^()]*\)/g, '()');
    if (/[+~]/.test(outside.replace(/\[[^\]]*\]/g, ''))) return false;
    return [...outside.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].some(([, name]) => later.has(name!));
  });
}

/** The stylesheet split in two: what the first paint needs, and the rules that can wait. */
export function splitCss(css: string, later: Set<string>): { now: string; later: string } {
  const now = postcss.parse(css);
  const moved = postcss.root();
  const movable = (node: postcss.ChildNode): node is Rule =>
    node.type === 'rule' && onlyLater(node.selectors, later);
  for (const node of [...now.nodes]) {
    if (movable(node)) {
      moved.append(node.remove());
    } else if (node.type === 'atrule' && node.name === 'media' && node.nodes) {
      // A media query's rules are split alike, each half keeping the query. Any other at-rule stays whole.
      const waiting = node.nodes.filter(movable);
      if (waiting.length === 0) continue;
      const copy = node.clone({ nodes: [] }) as AtRule;
      for (const rule of waiting) copy.append(rule.remove());
      moved.append(copy);
      if (node.nodes.length === 0) node.remove();
    }
  }
  const text = (root: postcss.Root) => {
    root.raws.after = '';
    return root.toString();
  };
  return { now: text(now), later: text(moved) };
}

export type CssLater = {
  html: string;
  /** The stylesheet the page now loads after its first paint, to write beside Next's chunks; null when none. */
  sheet: { name: string; css: string; beside: string } | null;
};

/** The page with the rules below its fold moved out of its head's <style>; unchanged when none can move. */
export function cssLater(html: string): CssLater {
  const head = HEAD_STYLE.exec(html);
  if (!head || html.includes(LATER_LINK)) return { html, sheet: null };
  const [whole, open, hrefs, css, close] = head;
  const first = hrefs!.split(' ')[0]!;
  const folder = first.slice(0, first.lastIndexOf('/') + 1);
  const split = splitCss(css!, laterClasses(html));
  if (split.later === '') return { html, sheet: null };
  const name = `${createHash('sha256').update(split.later).digest('hex').slice(0, 16)}.css`;
  const href = folder + name;
  const links =
    `<link rel="stylesheet" href="${href}" media="print" onload="this.media='all'" ${LATER_LINK}=""/>` +
    `<noscript><link rel="stylesheet" href="${href}"/></noscript>`;
  // Replacers, not strings: a string's `$&` or `$'` (CSS may hold them, in a `content`) would be read as patterns.
  const rewritten = html
    .replace(whole, () => `${open}${split.now}${close}`)
    .replace('</head>', () => `${links}</head>`);
  return {
    html: rewritten,
    sheet: { name, css: split.later, beside: first.slice(first.lastIndexOf('/') + 1) },
  };
}

/** Every file under `folder` (recursively) named `name`. */
const filesNamed = (folder: string, name: string) =>
  existsSync(folder)
    ? readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((file) => path.basename(file) === name)
        .map((file) => path.join(folder, file))
    : [];

/**
 * Every prerendered page of a build (css-once's), with its later rules moved out, and how many bytes of CSS left its
 * head (0: none could, or it was rewritten already). The stylesheet is written beside the chunk the page names first:
 * in static/ for the pages `next start` serves, in output/ for the copies a deployment adapter made there (Vercel's,
 * which deploys output/static/). Throws, naming the page, on a page whose markup it cannot read, or whose chunk is
 * not where it would be served from.
 */
export function cssLaterInBuild(distDir: string): { page: string; movedBytes: number }[] {
  const pages = prerenderedPages(distDir);
  return pages.map((page) => {
    const file = path.join(distDir, page);
    const html = readFileSync(file, 'utf8');
    let result: CssLater;
    try {
      result = cssLater(html);
    } catch (error) {
      throw new Error(`css-later: ${page}: ${(error as Error).message}`);
    }
    const { sheet } = result;
    if (!sheet) return { page, movedBytes: 0 };
    // A page an adapter copied into output/ is deployed from there, with the static files beside it: its stylesheet
    // must be in output/ too, or the deployment would name a file it does not have.
    const deployed = page.startsWith(`output${path.sep}`);
    const places = filesNamed(path.join(distDir, deployed ? 'output' : 'static'), sheet.beside);
    if (places.length === 0)
      throw new Error(
        `css-later: ${page}: its stylesheet ${sheet.beside} is not in ${deployed ? 'output/' : 'static/'}`,
      );
    for (const chunk of places) {
      writeFileSync(path.join(path.dirname(chunk), sheet.name), sheet.css);
    }
    writeFileSync(file, result.html);
    return { page, movedBytes: Buffer.byteLength(sheet.css) };
  });
}
