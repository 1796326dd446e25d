/**
 * Runs once when a server instance starts, before it answers anyone: answers at the server's door what Next would
 * answer with a 500 (lib/server/server-door.ts), says where enquiries will go
 * (reporting a broken contact configuration now rather than at the first lost
 * enquiry), and starts the Workflow SDK's world, which picks up the leads
 * still pending from before a restart or a crash.
 */
export async function register() {
  // The contact modules need Node (files, SMTP, the engine); Next sets NEXT_RUNTIME for each runtime it starts.
  if (process.env.NEXT_RUNTIME !== 'nodejs') return;
  const { guardServerDoor } = await import('./lib/server/server-door');
  guardServerDoor(`${process.cwd()}/public`);
  const { describeContactConfig } = await import('./lib/server/startup-report');
  const { startWorkflowWorld } = await import('./lib/engine/start');
  // The engine's rescue restarts our runs a crash or the engine interrupted; what each needs is ours to say.
  const { OUR_WORKFLOWS } = await import('./lib/contact/lead/resume');
  describeContactConfig();
  await startWorkflowWorld(OUR_WORKFLOWS);
}
