import 'server-only';
import { importKey } from '@workflow/core/encryption';
import { hydrateDataWithKey, isEncryptedData } from '@workflow/core/serialization-format';
import { observabilityRevivers } from 'workflow/observability';
import type { getWorld } from 'workflow/runtime';

// Reads the SDK's internals (@workflow/core, pinned with `workflow` in package.json): workflow/observability
// re-exports only the keyless decoder, and Vercel's world encrypts each run's input and output with a key of its own.
// This decrypts as the SDK's own CLI and dashboard do since vercel/workflow#1256, passing the whole run so that a
// run of another deployment resolves its key (vercel/workflow#2245). Proved by lib/staff/leads/vercel.test.ts.

type World = ReturnType<typeof getWorld>;
type Run = Awaited<ReturnType<World['runs']['list']>>['data'][number];

/** A run's input and output as plain values; what cannot be read is left as it was. */
export async function runData(
  world: World,
  run: Run,
): Promise<{ input?: unknown; output?: unknown }> {
  const { input, output } = run as { input?: unknown; output?: unknown };
  const raw =
    isEncryptedData(input) || isEncryptedData(output)
      ? await world.getEncryptionKeyForRun?.(run as never)
      : null;
  const key = raw ? await importKey(raw) : undefined;
  // What cannot be read stays as it was, as the SDK's hydrateResourceIO leaves it: then it is no lead of ours.
  const decode = (value: unknown) =>
    value == null
      ? value
      : hydrateDataWithKey(value, observabilityRevivers, key).catch(() => value);
  return { input: await decode(input), output: await decode(output) };
}
