/**
 * @jest-environment node
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cssOnce, cssOnceInBuild } from './css-once';

/*
 * A prerendered page as Next 16.4 writes it with inlineCss: the stylesheets in a <style> in the head, and again as
 * text rows of the flight data, in scripts that may cut a row anywhere. Text rows count UTF-8 bytes, not characters.
 */
const A = 'body{color:#1f2937}';
const B = '.quote::before{content:"“é”"}.x{}';
const textRow = (id: string, text: string) =>
  `${id}:T${Buffer.byteLength(text).toString(16)},${text}`;
const style = (href: string, row: string) =>
  `["$","style","${href}",{"precedence":"next","href":"${href}","children":"$${row}"}]`;
const FLIGHT = [
  '1:"$Sreact.fragment"\n',
  ':HL["/_next/static/media/m.woff2","font"]\n',
  textRow('7', A),
  textRow('2c', B),
  textRow('9', 'Una cita: «<b>á</b>»'),
  `0:[${style('/a.css', '7')},${style('/b.css', '2c')},"$9"]\n`,
].join('');
const script = (chunk: string) =>
  `<script>self.__next_f.push(${JSON.stringify([1, chunk]).replace(/</g, '\\u003c').replace(/>/g, '\\u003e')})</script>`;
/** The page with its flight data cut into scripts at `cuts`. */
function page(flight: string, cuts: number[], head = A + B) {
  const chunks = [0, ...cuts].map((at, i, all) => flight.slice(at, all[i + 1]));
  return (
    `<!DOCTYPE html><html><head><style data-precedence="next" data-href="/a.css /b.css">${head}</style></head>` +
    `<body><p>Hola</p><script>(self.__next_f=self.__next_f||[]).push([0])</script>${chunks.map(script).join('')}</body></html>`
  );
}
const flightOf = (html: string) =>
  [...html.matchAll(/self\.__next_f\.push\((\[1,"(?:[^"\\]|\\.)*"\])\)/g)]
    .map((found) => (JSON.parse(found[1]!) as [1, string])[1])
    .join('');

const ONCE = FLIGHT.replace(textRow('7', A), '7:T0,').replace(textRow('2c', B), '2c:T0,');

test('empties the flight copy of each inlined stylesheet, whatever the scripts cut, and keeps every other row', () => {
  // Cut inside a header, inside the second stylesheet's text (after its "é"), and inside the quote's text.
  const inB = FLIGHT.indexOf('é') + 1;
  for (const cuts of [[], [FLIGHT.indexOf('2c:T') + 2], [inB], [inB, FLIGHT.indexOf('<b>')]]) {
    const { html, styles, removedBytes } = cssOnce(page(FLIGHT, cuts));
    expect(flightOf(html)).toBe(ONCE);
    expect(styles).toBe(2);
    expect(removedBytes).toBeGreaterThanOrEqual(Buffer.byteLength(A + B));
    // The head keeps its CSS; the markup and the scripts' count are untouched.
    expect(html).toContain(
      `<style data-precedence="next" data-href="/a.css /b.css">${A + B}</style>`,
    );
    expect(html.match(/<script>/g)).toHaveLength(cuts.length + 2);
    expect(html).not.toContain('<b>');
  }
});

test('leaves a page already rewritten, or one without inlined CSS, as it is', () => {
  const once = cssOnce(page(FLIGHT, [40])).html;
  expect(cssOnce(once)).toEqual({ html: once, removedBytes: 0, styles: 0 });
  const plain = page('0:["$","p",null,{"children":"Hola"}]\n', []);
  expect(cssOnce(plain).html).toBe(plain);
});

test('refuses a page whose flight CSS is not the head’s, or whose rows it cannot read, rather than guess', () => {
  expect(() => cssOnce(page(FLIGHT, [], A))).toThrow('/b.css in the flight data is not the head');
  const long = FLIGHT.replace(textRow('7', A), `7:Tfff,${A}`);
  expect(() => cssOnce(page(long, []))).toThrow();
});

test("rewrites a build's prerendered pages and the copies `next start` and Vercel's adapter made, nothing else", () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'css-once-'));
  try {
    const pages = [
      'server/app/index.html',
      'server/route-cache/APP_PAGE/abc/$/index.html',
      'output/static/aviso-de-privacidad.html',
      'output/functions/index.prerender-fallback.html',
    ];
    const other = 'server/pages/otra.html';
    for (const file of [...pages, other]) {
      mkdirSync(path.dirname(path.join(dist, file)), { recursive: true });
      writeFileSync(path.join(dist, file), page(FLIGHT, [40]));
    }
    const done = cssOnceInBuild(dist);
    expect(done.filter((one) => one.removedBytes > 0)).toHaveLength(pages.length);
    for (const file of pages)
      expect(flightOf(readFileSync(path.join(dist, file), 'utf8'))).toBe(ONCE);
    expect(flightOf(readFileSync(path.join(dist, other), 'utf8'))).toBe(FLIGHT);
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
});

test('reads the flight rows of one Next: `next` is pinned to the exact version installed', () => {
  const root = path.join(__dirname, '..', '..');
  const read = (file: string) =>
    JSON.parse(readFileSync(path.join(root, file), 'utf8')) as {
      version: string;
      dependencies: Record<string, string>;
    };
  const wanted = read('package.json').dependencies.next;
  expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
  expect(read('node_modules/next/package.json').version).toBe(wanted);
});
