import { timeToken } from '@/lib/contact/form-token';

// The contact form's island asks for this once the form is on screen (lib/contact/form-token.ts):
// a signature of now, never cached. The home page itself stays static.
export const dynamic = 'force-dynamic';

export function GET() {
  return Response.json({ token: timeToken() }, { headers: { 'Cache-Control': 'no-store' } });
}
