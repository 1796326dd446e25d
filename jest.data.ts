import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// This test file's own local inbox, in the run's folder (jest.global-setup.ts says why), never the project's .inbox/.
process.env.CONTACT_INBOX_DIR = mkdtempSync(
  path.join(process.env.UNIT_DATA_ROOT ?? tmpdir(), 'inbox-'),
);
