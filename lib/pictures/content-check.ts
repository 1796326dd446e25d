import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type * as TS from 'typescript';

/**
 * The pictures lib/content.ts names, checked before `next build` compiles
 * anything (next.config.ts): each file exists, is SVG, PNG, JPEG, WebP or
 * AVIF (by its bytes, not only its name), is at most 5 MB, and each picture
 * has its alt text unless it is marked `decorative: true`. Every problem is
 * reported with the line of lib/content.ts and the file's name, in Spanish:
 * the agency's staff are the ones who read it.
 *
 * It reads the file's source rather than running it: lib/content.ts imports
 * the pictures, which only Next's compiler can load.
 */

const CONTENT_FILE = 'lib/content.ts';
export const MAX_PICTURE_BYTES = 5 * 1024 * 1024;

const FORMATS = ['SVG', 'PNG', 'JPEG', 'WebP', 'AVIF'] as const;
type Format = (typeof FORMATS)[number] | 'GIF' | 'BMP' | 'TIFF' | 'ICO' | 'HEIC';
const EXTENSIONS: Record<string, Format> = {
  '.svg': 'SVG',
  '.png': 'PNG',
  '.jpg': 'JPEG',
  '.jpeg': 'JPEG',
  '.webp': 'WebP',
  '.avif': 'AVIF',
  '.gif': 'GIF',
  '.bmp': 'BMP',
  '.tif': 'TIFF',
  '.tiff': 'TIFF',
  '.ico': 'ICO',
  '.heic': 'HEIC',
};
const ALLOWED = `${FORMATS.slice(0, -1).join(', ')} o ${FORMATS[FORMATS.length - 1]}`;

/** What a file is, from its first bytes. */
function sniff(bytes: Buffer): Format | undefined {
  const ascii = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'PNG';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'JPEG';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'WebP';
  if (ascii(4, 8) === 'ftyp')
    return /^(avif|avis)$/.test(ascii(8, 12))
      ? 'AVIF'
      : /^(heic|heix|mif1)$/.test(ascii(8, 12))
        ? 'HEIC'
        : undefined;
  if (ascii(0, 4) === 'GIF8') return 'GIF';
  if (ascii(0, 2) === 'BM') return 'BMP';
  if (ascii(0, 4) === 'II*\0' || ascii(0, 4) === 'MM\0*') return 'TIFF';
  if (/<svg[\s>]/i.test(ascii(0, 4096))) return 'SVG';
  return undefined;
}

function svgProblem(text: string): string | undefined {
  const root = /<svg\b[^>]*>/i.exec(text)?.[0] ?? '';
  const has = (name: string) => new RegExp(`\\s${name}\\s*=\\s*["'][^"']+["']`, 'i').test(root);
  if (has('viewBox') || (has('width') && has('height'))) return undefined;
  return 'el SVG no dice su tamaño: su etiqueta <svg> necesita viewBox (o width y height).';
}

function fileProblems(file: string): string[] {
  let size: number;
  try {
    const stat = statSync(file);
    if (!stat.isFile()) return ['no es un archivo.'];
    size = stat.size;
  } catch {
    return ['el archivo no existe (revisa el nombre, la carpeta y las mayúsculas).'];
  }
  const problems: string[] = [];
  const named = EXTENSIONS[path.extname(file).toLowerCase()];
  const bytes = readFileSync(file);
  const actual = sniff(bytes);
  if (!actual) problems.push(`no es una imagen que se reconozca: usa ${ALLOWED}.`);
  else if (!(FORMATS as readonly string[]).includes(actual))
    problems.push(`formato no admitido (${actual}): usa ${ALLOWED}.`);
  else if (named !== actual)
    problems.push(
      `el nombre dice ${named ?? path.extname(file)} pero el archivo es ${actual}: corrige la extensión.`,
    );
  if (size > MAX_PICTURE_BYTES) {
    problems.push(
      `pesa ${(size / 1024 / 1024).toFixed(1)} MB y el máximo es 5 MB: expórtala más pequeña (ver docs/contenido.md).`,
    );
  }
  if (actual === 'SVG') {
    const problem = svgProblem(bytes.toString('utf8'));
    if (problem) problems.push(problem);
  }
  return problems;
}

/** Every problem with the pictures lib/content.ts names, one line each; none when all is well. */
export async function contentPictureProblems(projectDir: string): Promise<string[]> {
  // Loaded here, at build only: `next start` reads next.config.ts too, without the development tools.
  const ts = (await import('typescript')).default;
  const contentPath = path.join(projectDir, CONTENT_FILE);
  const source = ts.createSourceFile(
    contentPath,
    readFileSync(contentPath, 'utf8'),
    ts.ScriptTarget.Latest,
    true,
  );
  const lineOf = (node: TS.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const resolve = (specifier: string) =>
    specifier.startsWith('@/')
      ? path.join(projectDir, specifier.slice(2))
      : path.resolve(path.dirname(contentPath), specifier);

  // `import cafe from '@/public/images/clients/cafe.png'`: name -> file.
  const imports = new Map<string, string>();
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier))
      continue;
    const name = statement.importClause?.name?.text;
    const specifier = statement.moduleSpecifier.text;
    if (
      name &&
      !statement.importClause.isTypeOnly &&
      EXTENSIONS[path.extname(specifier).toLowerCase()]
    )
      imports.set(name, resolve(specifier));
  }

  const problems: string[] = [];
  const report = (node: TS.Node, file: string, problem: string) =>
    problems.push(
      `${CONTENT_FILE}:${lineOf(node)} ${path.relative(projectDir, file) || file}: ${problem}`,
    );
  const fileChecks = new Map<string, string[]>();

  /** An object literal that names a picture (`src:` or `img:`): its file's problems and its alt text's. */
  const checkPicture = (object: TS.ObjectLiteralExpression) => {
    const property = (name: string) =>
      object.properties.find(
        (p): p is TS.PropertyAssignment | TS.ShorthandPropertyAssignment =>
          (ts.isPropertyAssignment(p) || ts.isShorthandPropertyAssignment(p)) &&
          ts.isIdentifier(p.name) &&
          p.name.text === name,
      );
    const picture = property('src') ?? property('img');
    const value =
      picture && (ts.isPropertyAssignment(picture) ? picture.initializer : picture.name);
    if (!value) return;
    if (ts.isStringLiteralLike(value)) {
      if (EXTENSIONS[path.extname(value.text).toLowerCase()]) {
        report(
          value,
          value.text,
          'escribe la imagen como un import al principio del archivo, no como texto (ver docs/contenido.md).',
        );
      }
      return;
    }
    const file = ts.isIdentifier(value) ? imports.get(value.text) : undefined;
    if (!file) return;
    if (!fileChecks.has(file)) fileChecks.set(file, fileProblems(file));
    for (const problem of fileChecks.get(file)!) report(value, file, problem);

    const alt = property('alt');
    const decorative = property('decorative');
    const isDecorative =
      decorative &&
      ts.isPropertyAssignment(decorative) &&
      decorative.initializer.kind === ts.SyntaxKind.TrueKeyword;
    if (!alt) {
      report(
        value,
        file,
        "falta su texto alternativo: agrega alt: '…' (qué muestra la imagen, para quien no la ve).",
      );
    } else if (
      ts.isPropertyAssignment(alt) &&
      ts.isStringLiteralLike(alt.initializer) &&
      !alt.initializer.text.trim() &&
      !isDecorative
    ) {
      report(
        alt,
        file,
        'su texto alternativo (alt) está vacío: escribe qué muestra la imagen, o marca la imagen decorative: true ' +
          'si solo adorna.',
      );
    }
  };

  const visit = (node: TS.Node) => {
    if (ts.isObjectLiteralExpression(node)) checkPicture(node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return problems;
}

/** For next.config.ts at `next build`: throws with every problem, so the build stops and says what to fix. */
export async function assertContentPictures(projectDir: string): Promise<void> {
  const problems = await contentPictureProblems(projectDir);
  if (problems.length === 0) return;
  throw new Error(
    [
      `Hay que corregir las imágenes de ${CONTENT_FILE} (ver docs/contenido.md, "Cambiar textos e imágenes"):`,
      ...problems.map((p) => `  - ${p}`),
    ].join('\n'),
  );
}
