// What a first visit downloads from the page's own origin: the HTML, its CSS
// and its scripts, raw and gzip (level 9). Scripts marked nomodule are never
// fetched by a modern browser and are left out. Same method as
// shared/tools/page-weight.mjs, so the two agree.
import zlib from 'node:zlib';

export type Bytes = { n: number; raw: number; gzip: number };
export type PageWeight = {
  url: string;
  status: number;
  html: { raw: number; gzip: number };
  js: Bytes;
  css: Bytes;
};

const gzip = (buffer: Buffer) => zlib.gzipSync(buffer, { level: 9 }).length;

export async function pageWeight(
  url: string,
  headers: Record<string, string> = {},
): Promise<PageWeight> {
  const response = await fetch(url, { redirect: 'follow', headers });
  const html = await response.text();
  const origin = new URL(response.url).origin;
  const absolute = (href: string) => new URL(href, response.url).href;
  const scripts = [...html.matchAll(/<script([^>]*)\ssrc="([^"]+)"([^>]*)>/g)]
    .filter((match) => !/nomodule/i.test(`${match[1]}${match[3]}`))
    .map((match) => absolute(match[2] ?? ''));
  const styles = [
    ...html.matchAll(
      /<link[^>]*rel="stylesheet"[^>]*href="([^"]+)"|<link[^>]*href="([^"]+)"[^>]*rel="stylesheet"/g,
    ),
  ].map((match) => absolute(match[1] || match[2] || ''));
  const sum = async (list: string[]): Promise<Bytes> => {
    let raw = 0;
    let compressed = 0;
    let n = 0;
    for (const href of new Set(list)) {
      if (new URL(href).origin !== origin) continue;
      const body = Buffer.from(await (await fetch(href)).arrayBuffer());
      raw += body.length;
      compressed += gzip(body);
      n += 1;
    }
    return { n, raw, gzip: compressed };
  };
  const htmlBuffer = Buffer.from(html);
  const js = await sum(scripts);
  const css = await sum(styles);
  return {
    url,
    status: response.status,
    html: { raw: htmlBuffer.length, gzip: gzip(htmlBuffer) },
    js,
    css,
  };
}
