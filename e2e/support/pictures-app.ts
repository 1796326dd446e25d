/**
 * The site as the agency will make it: its own large PNG and JPEG files in
 * place of our SVG placeholders, built and served for e2e/pictures.spec.ts.
 *
 * A copy of the project in .next/pictures-app (its files, node_modules as hard
 * links), with pictures generated here (never committed): a 2,000-px JPEG for
 * the benefits picture, a PNG logo and promo, and six PNG client logos of
 * different shapes. Its lib/content.ts imports them instead of the SVGs, as the
 * docs/contenido.md tells the agency to do. Then `next build` and `next start` there.
 * fixtures.json lists each picture's alt text with its file's size.
 *
 *   node e2e/support/pictures-app.mjs PORT DIR
 */
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { isolatedProcessEnv } from '../../test-support/isolated-env.mjs';

const ROOT = path.resolve(import.meta.dirname, '../..');
const port = Number(process.argv[2]);
// PICTURES_DIR of e2e/support/test-env.ts, inside .next: git, ESLint, TypeScript, Jest and Playwright leave it alone.
const APP_DIR = path.resolve(ROOT, process.argv[3] ?? '');

/** A picture drawn as SVG and rasterised by sharp: shapes, gradients and a grain, like a real export. */
function artwork(width, height, hue, label) {
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
const PICTURES = [
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

function copyProject() {
  rmSync(APP_DIR, { recursive: true, force: true });
  // The project's files as they are in the working tree (committed or not), not its builds or test output.
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: ROOT, encoding: 'utf8' });
  if (listed.status !== 0) throw new Error(`git ls-files: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(path.join(ROOT, file))) continue;
    mkdirSync(path.dirname(path.join(APP_DIR, file)), { recursive: true });
    cpSync(path.join(ROOT, file), path.join(APP_DIR, file));
  }
  // Hard links: Turbopack does not follow a symlinked node_modules out of the project.
  const linked = spawnSync('cp', ['-al', path.join(ROOT, 'node_modules'), path.join(APP_DIR, 'node_modules')]);
  if (linked.status !== 0) throw new Error(`cp -al node_modules: ${linked.stderr}`);
}

async function writePictures() {
  const fixtures = {};
  let content = readFileSync(path.join(APP_DIR, 'lib/content.ts'), 'utf8');
  for (const [index, [file, width, height, replaces]] of PICTURES.entries()) {
    const target = path.join(APP_DIR, 'public/images/fixtures', file);
    mkdirSync(path.dirname(target), { recursive: true });
    const image = sharp(artwork(width, height, (index * 47) % 360, path.basename(file, path.extname(file))));
    await (file.endsWith('.jpg') ? image.jpeg({ quality: 90 }) : image.png()).toFile(target);
    const from = `'@/public/images/${replaces}'`;
    if (!content.includes(from)) throw new Error(`lib/content.ts no longer imports ${from}`);
    content = content.replace(from, `'@/public/images/fixtures/${file}'`);
    fixtures[file] = { width, height, bytes: statSync(target).size };
  }
  writeFileSync(path.join(APP_DIR, 'lib/content.ts'), content);
  writeFileSync(path.join(APP_DIR, 'fixtures.json'), JSON.stringify(fixtures, null, 2));
}

function run(args, env) {
  return spawn(path.join(APP_DIR, 'node_modules/.bin/next'), args, { cwd: APP_DIR, env, stdio: 'inherit' });
}

if (!Number.isInteger(port) || !process.argv[3]?.startsWith('.next/')) throw new Error('usage: node e2e/support/pictures-app.mjs PORT .next/DIR');
copyProject();
await writePictures();
const env = isolatedProcessEnv({ NEXT_PUBLIC_SITE_URL: `http://127.0.0.1:${port}` });
const build = run(['build'], env);
const built = await new Promise((resolve) => build.on('exit', (code) => resolve(code === 0)));
if (!built) process.exit(1);
const server = run(['start', '--port', String(port), '--hostname', '127.0.0.1'], env);
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
