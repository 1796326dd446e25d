// A production-like .env.local (what `vercel env pull` writes): every service in it is one that
// scripts/env-isolation-test.mts watches on 127.0.0.1, and the no-tags build is made with it in its copy
// (e2e/support/test-env.ts), so the isolation run checks the very build the end-to-end and quality runs use.
// Fixed ports and folders: the build's stamp holds this text, and it is built once while it is unchanged.
import { tmpdir } from 'node:os';
import path from 'node:path';

const OFFSET = Number(process.env.TEST_PORT_OFFSET ?? 0);
export const PROD_STUB_PORT = 3292 + OFFSET; // "production's" contact API
export const PROD_SMTP_PORT = 3293 + OFFSET; // its mail server
export const PROD_PG_PORT = 3294 + OFFSET; // its PostgreSQL (the engine's world)
export const PROD_HOOKS_PORT = 3295 + OFFSET; // its lead webhook and Meta Graph API
export const PROD_REDIS_PORT = 3296 + OFFSET; // its Redis
/** Its public values: none may reach a page built or served by a test. */
export const PROD_PUBLIC = ['produccion.env-isolation.test', 'G-PRODUCCION1', '999000111222333'];

export const PRODUCTION_ENV_LOCAL = [
  `REDIS_URL=redis://127.0.0.1:${PROD_REDIS_PORT}`,
  `CONTACT_API_BASE_URL=http://127.0.0.1:${PROD_STUB_PORT}/api/`,
  'CONTACT_SITE_KEY=clave-de-produccion-9f8e7d',
  `CONTACT_INBOX_DIR=${path.join(tmpdir(), 'env-isolation-produccion')}`,
  'CONTACT_OUTBOX_BACKOFF_SECONDS=1',
  'WORKFLOW_TARGET_WORLD=@workflow/world-postgres',
  `WORKFLOW_POSTGRES_URL=postgres://produccion:secreto@127.0.0.1:${PROD_PG_PORT}/produccion`,
  `ALERT_SMTP_URL=smtp://avisos:secreto@127.0.0.1:${PROD_SMTP_PORT}`,
  'ALERT_EMAIL_TO=ventas@produccion.test',
  'ALERT_EMAIL_FROM=Produccion <avisos@produccion.test>',
  'CONTACT_RATE_LIMIT_MAX=1',
  'TRUST_PROXY_HEADERS=1',
  'VERCEL=1',
  `NEXT_PUBLIC_SITE_URL=https://${PROD_PUBLIC[0]}`,
  `NEXT_PUBLIC_GA_MEASUREMENT_ID=${PROD_PUBLIC[1]}`,
  `LEAD_WEBHOOK_URL=http://127.0.0.1:${PROD_HOOKS_PORT}/webhook`,
  `LEAD_WEBHOOK_SECRET=whsec_${Buffer.from('secreto-de-produccion-de-32-byte').toString('base64')}`,
  `NEXT_PUBLIC_META_PIXEL_ID=${PROD_PUBLIC[2]}`,
  'META_CAPI_ACCESS_TOKEN=EAAProduccion0123456789',
  `META_GRAPH_API_URL=http://127.0.0.1:${PROD_HOOKS_PORT}/graph`,
  '',
].join('\n');
