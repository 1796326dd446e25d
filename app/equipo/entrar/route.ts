import { cookies } from 'next/headers';
import { NextResponse, type NextRequest } from 'next/server';
import { getStaffConfig } from '@/lib/staff/config';
import { signIn } from '@/lib/staff/sign-in';

// The e-mailed link lands here: signed in, on to the lists; otherwise the sign-in page says why.
export async function GET(request: NextRequest): Promise<Response> {
  const config = getStaffConfig();
  if (!config) return new NextResponse(null, { status: 404 });
  const answer = await signIn(request.nextUrl.searchParams.get('t'), await cookies());
  const to = new URL('/equipo', config.siteUrl);
  if (answer !== 'signed-in') to.searchParams.set('enlace', answer);
  return NextResponse.redirect(to, 303);
}
