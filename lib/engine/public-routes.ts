import { NextResponse, type NextRequest } from 'next/server';
import { getWorkflowWorld } from './choose-world';
import { doorOpen, fromEngine } from './delivery-key.mjs';

// What a stranger gets from the engine's routes: a plain 404, as if nothing were there, before the SDK reads
// anything. proxy.ts sends every request under /.well-known/workflow/ here.
// - The webhook route (webhook/[token]) serves createWebhook(), which this site never calls (its hooks are
//   createHook()): on the local world each unknown token made @workflow/world-local read every hook file it keeps
//   and log an error with a stack trace.
// - The queue's two routes answer `?__health` (@workflow/core's withHealthCheck) with the SDK's version and
//   `Access-Control-Allow-Origin: *`, before the sealed world (sealed-world.mjs) sees the request: here only what
//   the engine's door passes (door.ts, with this process's delivery key) reaches them.
// Vercel's world keeps today's behaviour: its deliveries are signed, and its observability may ask `?__health`
// across origins (vercel/workflow#615).

const WORKFLOW_ROUTES = '/.well-known/workflow';
/** The engine's queue: the world posts each message it delivers to one of these. */
const QUEUE_ROUTES = new Set([`${WORKFLOW_ROUTES}/v1/flow`, `${WORKFLOW_ROUTES}/v1/step`]);

/** The answer to a request for the engine's routes (NextResponse.next() lets it through), or null for other paths. */
export function guardEngineRoutes(request: NextRequest): Response | null {
  const { pathname } = request.nextUrl;
  if (pathname !== WORKFLOW_ROUTES && !pathname.startsWith(`${WORKFLOW_ROUTES}/`)) return null;
  if (QUEUE_ROUTES.has(pathname) && mayReachQueue(request)) return NextResponse.next();
  return new Response(null, { status: 404 });
}

function mayReachQueue(request: NextRequest): boolean {
  // A door opened in this process: its messages, and nothing else, are the engine's (its health check included).
  if (doorOpen()) return request.method === 'POST' && fromEngine(request);
  // No door: on Vercel its world answers; on a server of ours nothing legitimate can come yet.
  return getWorkflowWorld().kind === 'vercel';
}
