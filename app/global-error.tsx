'use client';

import { ErrorNotice } from '@/components/layout/error-notice';
import { brand, errorPage } from '@/lib/content';

// The root layout itself failed: this replaces it, so it brings its own <html> and <body>.
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="es-MX">
      <body>
        <title>{`${errorPage.title} | ${brand.name}`}</title>
        <ErrorNotice retry={retry} />
      </body>
    </html>
  );
}
