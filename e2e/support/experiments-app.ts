/**
 * The site as the agency makes it during an A/B test: its own
 * lib/content-experiments.ts with an experiment running, built as a copy of
 * the project (test-support/harness.ts), for e2e/experiments.spec.ts. No
 * switch of the product's: the file is written as docs/contenido.md tells the
 * agency to write it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, type AppSpec } from '../../test-support/harness';
import { DATA_DIR, E2E_BUILD_ENV, MAIN_APP, STUB_URL } from './test-env';

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const EXPERIMENTS_PORT = 3127 + OFFSET;
export const EXPERIMENTS_URL = `http://127.0.0.1:${EXPERIMENTS_PORT}`;
/** The same build as two servers sharing one PostgreSQL, its counts in the database. */
export const EXPERIMENTS_PG_PORTS = [3128 + OFFSET, 3129 + OFFSET] as const;
/** Its server's folder under DATA_DIR (the local world's runs are in workflow/ inside). */
export const EXPERIMENTS_DATA = 'experiments';

/** The running experiment, and what each of its variants says that the others do not. */
export const EXPERIMENT = 'portada';
export const SPLIT = { control: 50, b: 30, c: 20 } as const;
export type VariantId = keyof typeof SPLIT;
export const WORDS: Record<VariantId, string> = {
  control: 'Consigue nuevos clientes para tu negocio',
  b: 'Tu página web lista en 15 días',
  c: 'Más clientes desde Google este mes',
};
export const SUBMIT_B = 'Enviar y recibir asesoría';

const EXPERIMENTS_FILE = `import type { ExperimentDefinition } from './experiments/shape';

export const experiments: ExperimentDefinition[] = [
  {
    name: '${EXPERIMENT}',
    runs: true,
    variants: [
      { id: 'control', label: 'Página actual' },
      {
        id: 'b',
        label: 'Plazo',
        overrides: {
          'hero.headline': '${WORDS.b}',
          'contactForm.submit': '${SUBMIT_B}',
          firstSection: 'services',
          'services.items.1.text': 'Diseñamos tu página en 15 días, lista para celular.',
        },
      },
      {
        id: 'c',
        label: 'Google',
        overrides: { 'hero.headline': '${WORDS.c}', 'hero.formHeading': 'Pide tu plan para Google' },
      },
    ],
    split: [${SPLIT.control}, ${SPLIT.b}, ${SPLIT.c}],
    rule: { minVisitors: 500, minLeads: 20 },
  },
  { name: 'borrador', runs: false, variants: [], split: [] },
];
`;

/** `spec` with the experiment running, built as `name` for `siteUrl` (also scripts/quality/run.mts's measure). */
export function withRunningExperiment(spec: AppSpec, name: string, siteUrl: string): AppSpec {
  return {
    ...spec,
    name,
    publicEnv: { ...spec.publicEnv, NEXT_PUBLIC_SITE_URL: siteUrl },
    prepare: {
      id: `${spec.prepare?.id ?? ''}${EXPERIMENTS_FILE}`,
      run: async (dir) => {
        await spec.prepare?.run(dir);
        writeFileSync(path.join(dir, 'lib/content-experiments.ts'), EXPERIMENTS_FILE);
      },
    },
  };
}

export const EXPERIMENTS_APP: AppSpec = withRunningExperiment(
  MAIN_APP,
  'experiments',
  EXPERIMENTS_URL,
);

/**
 * Its server's settings: the end-to-end ones (the stub contact API), its own address and folder (absolute: the server
 * runs in the copy, the tests read the folder from the project).
 */
export const EXPERIMENTS_ENV: Record<string, string> = {
  ...E2E_BUILD_ENV,
  NEXT_PUBLIC_SITE_URL: EXPERIMENTS_URL,
  CONTACT_API_BASE_URL: `${STUB_URL}/api/`,
  CONTACT_INBOX_DIR: path.join(ROOT, DATA_DIR, EXPERIMENTS_DATA),
};
