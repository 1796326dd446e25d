import { assertServerEnv } from './server-schema';

/**
 * At `next build`: every server variable is checked with the rules the server
 * applies at run time, and a malformed one fails the build with its name, so
 * Vercel keeps the deployment that works. (At run time the same value would
 * only turn its own feature off, or, for the contact API, fail every enquiry.)
 */
export function checkServerEnv(): void {
  assertServerEnv(process.env);
}
