'use client';

import { ErrorNotice } from '@/components/layout/error-notice';

// A page that failed while rendering: the header and footer of the layout stay around this.
export default function ErrorPage({ retry }: { error: unknown; retry: () => void }) {
  return <ErrorNotice retry={retry} />;
}
