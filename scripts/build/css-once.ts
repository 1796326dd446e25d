// The home page's CSS, sent once. With `experimental.inlineCss`, Next 16.4 writes each stylesheet of a prerendered
// page twice: into a <style> in the head, where the browser paints with it, and again as that <style>'s children in
// React's flight data at the end of the body, where nothing needs it (the option's docs say the styles are duplicated
// in the RSC payload; vercel/next.js#98079, with fixes still open in #98084 and #98397). The copy is 12 kB of the
// page's 77, and about 3.5 kB of its 16.5 kB gzipped: too far from the first for gzip to find it.
//
// Run after `next build` (by `npm run build`, through scripts/build/after-next-build.ts, and by the tests' builds in
// test-support/harness.ts), this empties the second copy in each prerendered page of .next/server. The browser
// loses nothing: React adopts the head's <style> by its data-href and never reads the children again, and a client
// navigation asks for flight data alone, in which Next sends a <link> instead. It reads React's flight rows, an
// internal format, so `next` is pinned exactly; a page whose rows it cannot read fails the build, naming it, and a
// page is written whole or not at all.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** One inline script of flight data: `self.__next_f.push([1,"…"])`, the string escaped as Next escapes it. */
const FLIGHT_SCRIPT =
  /(<script(?: nonce="[^"]*")?>self\.__next_f\.push\()(\[1,"(?:[^"\\]|\\.)*"\])(\)<\/script>)/g;
/** A stylesheet Next inlined, in the flight data: its children are the text row `$id`. */
const INLINED_STYLE = /"precedence":"next","href":"([^"]+\.css)","children":"\$([0-9a-f]+)"/g;
/** Row tags whose row is a length in hex, a comma and that many bytes (React's flight client), rather than a line. */
const LENGTH_TAGS = new Set('TAOobUSsLlGgMmV');

type Row = { id: string; start: number; end: number; text?: { headerEnd: number } };

export type CssOnce = { html: string; removedBytes: number; styles: number };

/** The page with each inlined stylesheet's copy in the flight data emptied; throws on a page it cannot read. */
export function cssOnce(html: string): CssOnce {
  const scripts = [...html.matchAll(FLIGHT_SCRIPT)];
  const chunks = scripts.map((script) => (JSON.parse(script[2]!) as [1, string])[1]);
  const data = chunks.join('');
  const rows = flightRows(data);
  const head = /<style data-precedence="next"[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';

  // Which text rows are a stylesheet's children, and hold exactly what the head's <style> holds already.
  const emptied = new Set<string>();
  for (const [, href, id] of data.matchAll(INLINED_STYLE)) {
    const row = rows.get(id!);
    if (!row?.text)
      throw new Error(`the stylesheet ${href} names row ${id}, which is not a text row`);
    const css = data.slice(row.text.headerEnd, row.end);
    if (css === '') continue; // emptied already
    if (!head.includes(css))
      throw new Error(`the stylesheet ${href} in the flight data is not the head's`);
    emptied.add(id!);
  }
  if (emptied.size === 0) return { html, removedBytes: 0, styles: 0 };

  // The new flight data, as edits of the old: each emptied row's header and text become an empty text row.
  const edits = [...emptied].map((id) => {
    const row = rows.get(id)!;
    return { start: row.start, end: row.end, insert: `${id}:T0,` };
  });
  const rewritten = rewriteChunks(chunks, edits);
  let index = 0;
  const out = html.replace(FLIGHT_SCRIPT, (whole, open: string, _json, close: string) => {
    const chunk = rewritten[index];
    const before = chunks[index++];
    return chunk === before
      ? whole
      : `${open}${escapeForScript(JSON.stringify([1, chunk]))}${close}`;
  });
  const removedBytes = Buffer.byteLength(html) - Buffer.byteLength(out);
  return { html: out, removedBytes, styles: emptied.size };
}

/** The rows of flight data by id, with where each starts and ends; a text row also where its text starts. */
function flightRows(data: string): Map<string, Row> {
  const rows = new Map<string, Row>();
  let at = 0;
  while (at < data.length) {
    const colon = data.indexOf(':', at);
    const id = data.slice(at, colon);
    if (colon < 0 || !/^[0-9a-f]*$/.test(id)) throw new Error(`flight data unreadable at ${at}`);
    const tag = data[colon + 1] ?? '';
    if (LENGTH_TAGS.has(tag)) {
      const comma = data.indexOf(',', colon);
      const bytes = parseInt(data.slice(colon + 2, comma), 16);
      const end = advanceBytes(data, comma + 1, bytes);
      rows.set(id, { id, start: at, end, ...(tag === 'T' && { text: { headerEnd: comma + 1 } }) });
      at = end;
    } else {
      const newline = data.indexOf('\n', colon);
      const end = newline < 0 ? data.length : newline + 1;
      // A hint (`:HL[…]`) has no id, and several may come: only rows with an id are kept.
      if (id) rows.set(id, { id, start: at, end });
      at = end;
    }
  }
  return rows;
}

/** The string index `bytes` UTF-8 bytes after `from`: a text row's length counts bytes, not characters. */
function advanceBytes(data: string, from: number, bytes: number): number {
  let at = from;
  let left = bytes;
  while (left > 0) {
    if (at >= data.length) throw new Error('a text row runs past the end of the flight data');
    const code = data.codePointAt(at)!;
    left -= code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    at += code >= 0x10000 ? 2 : 1;
  }
  if (left < 0) throw new Error('a text row ends inside a character');
  return at;
}

/**
 * The chunks with each edit (a range of the joined data, replaced) applied where it falls, so every script keeps its
 * place in the page: an edit's text goes into the chunk where it starts, and its range is cut from every chunk it
 * spans.
 */
function rewriteChunks(chunks: string[], edits: { start: number; end: number; insert: string }[]) {
  let offset = 0;
  return chunks.map((chunk) => {
    const from = offset;
    const to = (offset += chunk.length);
    let out = '';
    let at = from;
    for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
      if (edit.end <= from || edit.start >= to) continue;
      out += chunk.slice(at - from, Math.max(edit.start, from) - from);
      if (edit.start >= from) out += edit.insert;
      at = Math.min(edit.end, to);
    }
    return out + chunk.slice(at - from);
  });
}

/** As Next writes flight data into a script: JSON, with what could end the script or confuse the parser escaped. */
const escapeForScript = (json: string) =>
  json
    .replace(/&/g, '\\u0026')
    .replace(/>/g, '\\u003e')
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * The prerendered pages of a build, as paths under its folder. They are in three places:
 * - server/app/*.html, as `next build` writes them;
 * - server/route-cache/, where `next start` copies each as it first serves it;
 * - output/, where a deployment adapter's onBuildComplete copies them during `next build` (Vercel's, which Vercel
 *   configures itself: @next-community/adapter-vercel writes output/static/ and output/functions/
 *   *.prerender-fallback.html, and Vercel deploys those, not server/app/).
 */
export function prerenderedPages(distDir: string): string[] {
  return ['server/app', 'server/route-cache', 'output']
    .filter((folder) => existsSync(path.join(distDir, folder)))
    .flatMap((folder) =>
      readdirSync(path.join(distDir, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.html'))
        .map((file) => path.join(folder, file)),
    );
}

/** Every prerendered page of a build, rewritten; what each lost. Throws, naming the page, on one it cannot read. */
export function cssOnceInBuild(distDir: string): { page: string; removedBytes: number }[] {
  const pages = prerenderedPages(distDir);
  return pages.map((page) => {
    const file = path.join(distDir, page);
    let result: CssOnce;
    try {
      result = cssOnce(readFileSync(file, 'utf8'));
    } catch (error) {
      throw new Error(
        `css-once: ${page}: ${(error as Error).message}. ` +
          "Next's flight data changed shape: see scripts/build/css-once.ts",
      );
    }
    if (result.removedBytes > 0) writeFileSync(file, result.html);
    return { page, removedBytes: result.removedBytes };
  });
}
