import type { Source } from './public';
import { assertServerEnv } from './server-schema';

/**
 * Build settings for next.config.ts, nothing the page reads. NEXT_DIST_DIR
 * lets the end-to-end suite make a second build, with every third-party ID
 * empty, beside the first (in .next/no-tags); everyone else builds to .next.
 */
export function distDir(source: Source): string {
  const value = source.NEXT_DIST_DIR?.trim();
  if (!value) return '.next';
  // Inside .next: git and the TypeScript check already leave it alone.
  if (!/^\.next\/[\w-]+$/.test(value)) throw new Error('NEXT_DIST_DIR: debe ser una carpeta dentro de .next, como .next/no-tags');
  return value;
}

export const buildDistDir = distDir(process.env);

/**
 * At `next build`: every server variable is checked with the rules the server
 * applies at run time, and a malformed one fails the build with its name, so
 * Vercel keeps the deployment that works. (At run time the same value would
 * only turn its own feature off, or, for the contact API, fail every enquiry.)
 */
export function checkServerEnv(): void {
  assertServerEnv(process.env);
}
