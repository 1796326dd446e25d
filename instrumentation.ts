/**
 * Runs once when a server instance starts: says where enquiries will go, and
 * reports a broken contact configuration at start-up rather than at the first
 * lost enquiry. A self-hosted server with an outbox also flushes it every
 * minute from here, and every server first removes what an interrupted
 * write left in its outbox.
 */
export async function register() {
  // The contact modules need Node (files, Redis, SMTP); Next sets NEXT_RUNTIME for each runtime it starts.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { describeContactConfig } = await import('./lib/contact/startup');
  const { startSelfFlush } = await import('./lib/contact/outbox/self-flush');
  const { cleanUpOutbox } = await import('./lib/contact/outbox/outbox');
  describeContactConfig({ selfFlush: startSelfFlush() });
  await cleanUpOutbox();
}
