/**
 * @jest-environment node
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/*
 * The ledger on the local world: one machine's folder, which every server on it shares and a restart keeps. Each
 * "server" here is the module loaded anew, as another process would.
 */
type LedgerModule = typeof import('./ledger');
// Each server loads its modules anew: seconds on a busy machine.
jest.setTimeout(30_000);
const saved = { ...process.env };
let dir = '';
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'registro-'));
  process.env = {
    ...saved,
    CONTACT_INBOX_DIR: dir,
    WORKFLOW_TARGET_WORLD: 'local',
    REDIS_URL: '',
    VERCEL: '',
  };
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  process.env = { ...saved };
  jest.restoreAllMocks();
});

function server(maxEntries?: number) {
  let loaded: LedgerModule | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual('./ledger') as LedgerModule;
  });
  return loaded?.ledger({
    key: 'prueba',
    folder: 'prueba',
    seconds: 60,
    ...(maxEntries ? { maxEntries } : {}),
  });
}
const entries = () => readdirSync(path.join(dir, 'equipo', 'prueba'));

describe('the ledger in the local world’s folder', () => {
  it('notes an id once, whichever of two servers asks first, even at the same moment', async () => {
    const [first, second] = [server(), server()];
    const answers = await Promise.all([
      first?.note('enlace-1', 1000),
      second?.note('enlace-1', 1000),
    ]);
    expect(answers.sort()).toEqual([false, true]);
    expect(await server()?.noted('enlace-1', 1000)).toBe(true);
    expect(await server()?.noted('enlace-2', 1000)).toBe(false);
  });

  it('keeps at most its bound: full of live entries it takes no more, rather than forget one early', async () => {
    const ledger = server(10);
    for (let i = 0; i < 10; i++) expect(await ledger?.note(`sesion-${i}`, 1000)).toBe(true);
    await expect(ledger?.note('una-mas', 1000)).rejects.toThrow(/lleno/);
    expect(await ledger?.noted('sesion-0', 1000)).toBe(true);
    // Once they are past their time, they are swept and the next one is taken.
    const now = Date.now();
    jest.spyOn(Date, 'now').mockReturnValue(now + 61_000);
    expect(await ledger?.note('una-mas', 1000)).toBe(true);
    expect(entries()).toHaveLength(1);
  });
});
