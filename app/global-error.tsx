'use client';

import { ErrorNotice } from '@/components/layout/error-notice';
import { errorPage } from '@/lib/error-copy';

// The root layout itself failed: this replaces it, so it brings its own <html> and <body>.
export default function GlobalError({ retry }: { error: unknown; retry: () => void }) {
  return (
    <html lang="es-MX">
      <body>
        <title>{errorPage.documentTitle}</title>
        <ErrorNotice retry={retry} />
      </body>
    </html>
  );
}
