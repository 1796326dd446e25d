import { cookies } from 'next/headers';
import { NextResponse, type NextRequest } from 'next/server';
import { deadLettersCsv, leadsCsv } from '@/lib/staff/leads/csv';
import { asDeadLetters, leadsIn, staffListNamed } from '@/lib/staff/leads/list';
import { getStaffConfig } from '@/lib/staff/config';
import { staffSession } from '@/lib/staff/sign-in';

/** Exportar CSV: the list on screen, for Excel (UTF-8 with BOM). Only with a staff session, never cached. */
export async function GET(request: NextRequest): Promise<Response> {
  if (!getStaffConfig()) return new NextResponse(null, { status: 404 });
  if (!(await staffSession(await cookies()))) return new NextResponse(null, { status: 401 });
  const list = staffListNamed(request.nextUrl.searchParams.get('lista'));
  const day = new Date().toISOString().slice(0, 10);
  const runs = await leadsIn(list);
  // The dead letters as `npm run leads -- export` writes them; the other lists in the same way as each other.
  const csv = list === 'dead' ? deadLettersCsv(asDeadLetters(runs)) : leadsCsv(runs);
  return new NextResponse(csv, {
    headers: {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="solicitudes-${list}-${day}.csv"`,
      'Cache-Control': 'no-store',
    },
  });
}
