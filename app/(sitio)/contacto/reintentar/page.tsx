import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { Hero } from '@/components/sections/hero';
import { requestClient } from '@/lib/abuse/client';
import { issueToken } from '@/lib/contact/signature-store';
import { decodeValues, VALUES_HEADER } from '@/lib/proxy/stale-form';

// Reached only through the proxy, with a stale form's values (lib/proxy/stale-form.ts).
export const metadata: Metadata = { robots: { index: false, follow: false } };

export default async function RetryPage() {
  const requestHeaders = await headers();
  const values = decodeValues(requestHeaders.get(VALUES_HEADER));
  if (!values) redirect('/');
  // With the server's signature: the visitor's next press, once they have read the page, is accepted without asking to
  // confirm.
  return (
    <Hero
      contactState={{
        status: 'failed',
        reason: 'stale',
        values,
        token: await issueToken('confirm', requestClient(requestHeaders)),
      }}
    />
  );
}
