'use client';

/**
 * JSON-LD for search engines, written once: in the HTML. A server component's
 * script would also travel in the page's RSC payload, a second copy of every
 * byte. As a client component without props it is rendered to HTML on the
 * server only: Next replaces `typeof window` at build time, so the browser's
 * bundle carries neither the data nor the content it is built from, and
 * hydration leaves an element's inner HTML as the server wrote it.
 */
export function StructuredData() {
  // Required only on the server: the browser's bundle keeps no trace of it.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const json = typeof window === 'undefined' ? (require('./agency-json') as typeof import('./agency-json')).agencyJson() : '';
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} suppressHydrationWarning />;
}
