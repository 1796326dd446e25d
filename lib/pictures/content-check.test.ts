/** @jest-environment node */
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { assertContentPictures, contentPictureProblems, MAX_PICTURE_BYTES } from './content-check';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');
const SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 240 80"><rect width="240" height="80"/></svg>';

let project: string;

/** A project whose lib/content.ts is `body` after `imports`, with these files under public/images. */
function write(files: Record<string, Buffer | string>, imports: string, body: string) {
  for (const [name, bytes] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(project, 'public/images', name)), { recursive: true });
    writeFileSync(path.join(project, 'public/images', name), bytes);
  }
  mkdirSync(path.join(project, 'lib'), { recursive: true });
  writeFileSync(path.join(project, 'lib/content.ts'), `${imports}\n${body}\n`);
}

beforeEach(() => {
  project = mkdtempSync(path.join(os.tmpdir(), 'content-check-'));
});
afterEach(() => rmSync(project, { recursive: true, force: true }));

it('finds nothing wrong with the site’s own lib/content.ts', async () => {
  await expect(contentPictureProblems(process.cwd())).resolves.toEqual([]);
});

it('accepts PNG, JPEG and SVG pictures with their alt text, and a decorative one without', async () => {
  write(
    { 'logo.png': PNG, 'photo.jpg': JPEG, 'mark.svg': SVG },
    "import logo from '@/public/images/logo.png';\nimport photo from '../public/images/photo.jpg';\nimport mark from '@/public/images/mark.svg';",
    "export const a = { src: logo, alt: 'Logo' };\nexport const b = [{ img: photo, alt: `Foto` }];\nexport const c = { src: mark, alt: '', decorative: true };",
  );
  await expect(contentPictureProblems(project)).resolves.toEqual([]);
});

it('names the line and the file that does not exist', async () => {
  write(
    {},
    "import logo from '@/public/images/clients/cafe.png';",
    "export const slides = [\n  { img: logo, alt: 'Café' },\n];",
  );
  expect(await contentPictureProblems(project)).toEqual([
    'lib/content.ts:3 public/images/clients/cafe.png: el archivo no existe (revisa el nombre, la carpeta y las mayúsculas).',
  ]);
});

it('names a picture without alt text, and one whose alt is empty without being decorative', async () => {
  write(
    { 'a.png': PNG, 'b.png': PNG },
    "import a from '@/public/images/a.png';\nimport b from '@/public/images/b.png';",
    "export const x = { src: a };\nexport const y = { img: b, alt: '  ' };",
  );
  const problems = await contentPictureProblems(project);
  expect(problems).toHaveLength(2);
  expect(problems[0]).toMatch(
    /^lib\/content\.ts:3 public\/images\/a\.png: falta su texto alternativo/,
  );
  expect(problems[1]).toMatch(
    /^lib\/content\.ts:4 public\/images\/b\.png: su texto alternativo \(alt\) está vacío/,
  );
});

it('refuses a format the site does not serve, a wrong extension, an SVG without its size, and a path written as text', async () => {
  write(
    {
      'anim.gif': GIF,
      'photo.png': JPEG,
      'nosize.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect/></svg>',
    },
    "import anim from '@/public/images/anim.gif';\nimport photo from '@/public/images/photo.png';\nimport nosize from '@/public/images/nosize.svg';",
    "export const p = [{ src: anim, alt: 'A' }, { src: photo, alt: 'B' }, { src: nosize, alt: 'C' }, { img: '/images/cafe.png', alt: 'D' }];",
  );
  const problems = await contentPictureProblems(project);
  expect(problems).toEqual([
    expect.stringMatching(
      /anim\.gif: formato no admitido \(GIF\): usa SVG, PNG, JPEG, WebP o AVIF\./,
    ),
    expect.stringMatching(/photo\.png: el nombre dice PNG pero el archivo es JPEG/),
    expect.stringMatching(/nosize\.svg: el SVG no dice su tamaño/),
    expect.stringMatching(/\/images\/cafe\.png: escribe la imagen como un import/),
  ]);
});

it('refuses a file over 5 MB', async () => {
  write(
    { 'big.jpg': JPEG },
    "import big from '@/public/images/big.jpg';",
    "export const p = { src: big, alt: 'Grande' };",
  );
  truncateSync(path.join(project, 'public/images/big.jpg'), MAX_PICTURE_BYTES + 1);
  expect(await contentPictureProblems(project)).toEqual([
    expect.stringMatching(/big\.jpg: pesa 5\.0 MB y el máximo es 5 MB/),
  ]);
});

it('stops the build with every problem in one message', async () => {
  write({}, "import a from '@/public/images/a.png';", 'export const p = { src: a };');
  await expect(assertContentPictures(project)).rejects.toThrow(
    /Hay que corregir las imágenes de lib\/content\.ts[\s\S]*a\.png: el archivo no existe[\s\S]*a\.png: falta su texto alternativo/,
  );
});
