import { assertServerEnv } from './server-schema';

/**
 * At `next build`: every server variable is checked with the rules the server
 * applies at run time, and a malformed one fails the build with its name, so
 * Vercel keeps the deployment that works. (At run time the same value would
 * only turn its own feature off, or, for the contact API, fail every enquiry.)
 */
export function checkServerEnv(): void {
  assertServerEnv(process.env);
}

/**
 * The Workflow SDK's world, chosen before withWorkflow() would: on Vercel its
 * own; with WORKFLOW_TARGET_WORLD set (the Postgres world), that one;
 * otherwise the local world, with its files under CONTACT_INBOX_DIR (git-ignored),
 * not in .next/, which every build empties.
 */
export function chooseWorkflowWorld(): void {
  if (process.env.VERCEL_DEPLOYMENT_ID || process.env.WORKFLOW_TARGET_WORLD) return;
  process.env.WORKFLOW_TARGET_WORLD = 'local';
  process.env.WORKFLOW_LOCAL_DATA_DIR ||= `${process.env.CONTACT_INBOX_DIR || '.inbox'}/workflow`;
}
