import { headers } from 'next/headers';
import { requestClient } from '@/lib/abuse/client';
import { issueToken } from '@/lib/contact/signature-store';

// The contact form's island asks for this once the form is on screen (lib/contact/form-token.ts):
// a signature of now for this client, never cached. The home page itself stays static.
export const dynamic = 'force-dynamic';

export async function GET() {
  const token = await issueToken('time', requestClient(await headers()));
  return Response.json({ token }, { headers: { 'Cache-Control': 'no-store' } });
}
