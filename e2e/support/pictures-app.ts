/**
 * The site as the agency will make it: its own large PNG and JPEG files in
 * place of our SVG placeholders, for e2e/pictures.spec.ts. A build of its own
 * (test-support/harness.ts copies the project): pictures generated into the
 * copy (never committed), a 2,000-px JPEG for the benefits picture, a PNG logo
 * and promo, and six PNG client logos of different shapes, and its
 * lib/content.ts importing them instead of the SVGs, as docs/contenido.md tells
 * the agency to do. fixtures.json lists each picture's size.
 */
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import type { AppSpec } from '../../test-support/harness';
import { PICTURES_URL } from './test-env';

/** A picture drawn as SVG and rasterised by sharp: shapes, gradients and a grain, like a real export. */
function artwork(width: number, height: number, hue: number, label: string): Buffer {
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">
    <defs>
      <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
        <stop offset="0" stop-color="hsl(${hue} 70% 45%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360} 70% 60%)"/>
      </linearGradient>
      <filter id="grain"><feTurbulence type="fractalNoise" baseFrequency="0.8" numOctaves="2"/><feColorMatrix values="0 0 0 0 0.5  0 0 0 0 0.5  0 0 0 0 0.5  0 0 0 0.12 0"/><feComposite in2="SourceGraphic" operator="in"/></filter>
    </defs>
    <rect width="100%" height="100%" rx="${Math.min(width, height) / 12}" fill="url(#g)"/>
    <circle cx="${width * 0.2}" cy="${height * 0.5}" r="${Math.min(width, height) * 0.3}" fill="#fff" fill-opacity="0.85"/>
    <rect x="${width * 0.42}" y="${height * 0.3}" width="${width * 0.5}" height="${height * 0.4}" rx="${height * 0.05}" fill="#0b1f33" fill-opacity="0.8"/>
    <text x="${width * 0.45}" y="${height * 0.56}" font-family="sans-serif" font-weight="700" font-size="${Math.min(width * 0.06, height * 0.18)}" fill="#fff">${label}</text>
    <rect width="100%" height="100%" filter="url(#grain)"/>
  </svg>`);
}

/** The pictures the agency drops in: [file under public/images/fixtures, width, height, the SVG it replaces]. */
const PICTURES: Array<[string, number, number, string]> = [
  ['responsive-web.jpg', 2000, 1400, 'responsive-web.svg'],
  ['logo.png', 880, 224, 'logo.svg'],
  ['promo.png', 1200, 224, 'promo.svg'],
  ['clients/cafe-la-esquina.png', 900, 300, 'clients/cafe-la-esquina.svg'],
  ['clients/dental-sonrisa.png', 600, 600, 'clients/dental-sonrisa.svg'],
  ['clients/taller-ruedas.png', 400, 800, 'clients/taller-ruedas.svg'],
  ['clients/flores-lupita.png', 1600, 200, 'clients/flores-lupita.svg'],
  ['clients/gimnasio-fuerza.png', 1000, 400, 'clients/gimnasio-fuerza.svg'],
  ['clients/despacho-rivera.png', 750, 250, 'clients/despacho-rivera.svg'],
];

async function writePictures(dir: string) {
  const fixtures: Record<string, { width: number; height: number; bytes: number }> = {};
  let content = readFileSync(path.join(dir, 'lib/content.ts'), 'utf8');
  for (const [index, [file, width, height, replaces]] of PICTURES.entries()) {
    const target = path.join(dir, 'public/images/fixtures', file);
    mkdirSync(path.dirname(target), { recursive: true });
    const image = sharp(
      artwork(width, height, (index * 47) % 360, path.basename(file, path.extname(file))),
    );
    await (file.endsWith('.jpg') ? image.jpeg({ quality: 90 }) : image.png()).toFile(target);
    const from = `'@/public/images/${replaces}'`;
    if (!content.includes(from)) throw new Error(`lib/content.ts no longer imports ${from}`);
    content = content.replace(from, `'@/public/images/fixtures/${file}'`);
    fixtures[file] = { width, height, bytes: statSync(target).size };
  }
  writeFileSync(path.join(dir, 'lib/content.ts'), content);
  writeFileSync(path.join(dir, 'fixtures.json'), JSON.stringify(fixtures, null, 2));
}

/** The agency's own thank-you page on another host, as a deployment may be configured: out of the tests' reach. */
export const EXTERNAL_THANK_YOU = 'https://gracias.agencia.example/listo';

/**
 * Built by test-support/harness.ts into .cache/test-apps/pictures (PICTURES_DIR). It also sends the visitor
 * to a thank-you page on another host: `test:stand-in` runs the deployment suite against it (one build less).
 */
export const PICTURES_APP: AppSpec = {
  name: 'pictures',
  publicEnv: { NEXT_PUBLIC_SITE_URL: PICTURES_URL, NEXT_PUBLIC_THANK_YOU_URL: EXTERNAL_THANK_YOU },
  prepare: { id: JSON.stringify(PICTURES), run: writePictures },
};
