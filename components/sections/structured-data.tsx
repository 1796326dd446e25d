'use client';

/**
 * JSON-LD for search engines, in the HTML only (a server component's script
 * would travel again in the RSC payload). A client component without props:
 * its data is required only on the server (`typeof window` is replaced at
 * build), so the browser's bundle has none of it, and hydration keeps the HTML.
 */
export function StructuredData() {
  const json =
    typeof window === 'undefined'
      ? // eslint-disable-next-line @typescript-eslint/no-require-imports
        (require('./agency-json') as typeof import('./agency-json')).agencyJson()
      : '';
  return (
    <script
      type="application/ld+json"
      dangerouslySetInnerHTML={{ __html: json }}
      suppressHydrationWarning
    />
  );
}
