import { notFound } from 'next/navigation';
import { Home } from '@/components/sections/home';
import { runningExperiments } from '@/lib/experiments/definitions';
import { experimentCodes } from '@/lib/experiments/flags';
import { pageCopy } from '@/lib/experiments/page-copy';

// As `/`: the contact Server Action runs on the page the visitor was served.
export const maxDuration = 10;
// Only the pages built below exist: any other code is a 404 (the proxy sends a direct visit to `/` first).
export const dynamicParams = false;

/** One page per combination of the running experiments' variants; none when no experiment runs. */
export async function generateStaticParams() {
  return (await experimentCodes().all()).map((code) => ({ code }));
}

/** A variant of `/`, prerendered: the proxy rewrites a visitor's view of `/` here (lib/proxy/experiments.ts). */
export default async function VariantPage({ params }: { params: Promise<{ code: string }> }) {
  const choice = await experimentCodes().read((await params).code);
  if (!choice) notFound();
  const chosen = runningExperiments().flatMap((experiment) => {
    const variant = experiment.variants.find((one) => one.id === choice[experiment.name]);
    return variant ? [{ experiment: experiment.name, variant }] : [];
  });
  return (
    <Home
      copy={pageCopy(chosen.map(({ variant }) => variant))}
      experiments={chosen.map(({ experiment, variant }) => ({
        name: experiment,
        variant: variant.id,
      }))}
    />
  );
}
