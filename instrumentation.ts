/**
 * Runs once when a server instance starts: says where enquiries will go, and
 * reports a broken contact configuration at start-up rather than at the first
 * lost enquiry.
 */
export async function register() {
  const { describeContactConfig } = await import('./lib/contact/startup');
  describeContactConfig();
}
