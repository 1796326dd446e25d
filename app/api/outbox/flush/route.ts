import { getOutboxConfig } from '@/lib/env/server';
import { flushOutbox } from '@/lib/contact/outbox/flush';
import { isAuthorizedFlush } from './authorize';

// Vercel Cron calls this with `Authorization: Bearer $CRON_SECRET`; so can any scheduler when self-hosted.
export const dynamic = 'force-dynamic';
export const maxDuration = 60;

export async function GET(request: Request) {
  if (!isAuthorizedFlush(request.headers.get('authorization'), getOutboxConfig().cronSecret)) {
    return Response.json({ error: 'no autorizado' }, { status: 401, headers: { 'Cache-Control': 'no-store' } });
  }
  return Response.json(await flushOutbox(), { headers: { 'Cache-Control': 'no-store' } });
}
