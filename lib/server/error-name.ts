/**
 * An error's kind and code for a log line (`TypeError`, `Error: ECONNREFUSED`), never its
 * message: a message may quote what a visitor sent, or a mail address.
 */
export function errorName(error: unknown): string {
  if (!(error instanceof Error)) return 'desconocido';
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && code ? `${error.name}: ${code}` : error.name;
}
