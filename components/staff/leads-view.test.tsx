/**
 * @jest-environment node
 */
import { renderToStaticMarkup } from 'react-dom/server';
import { FORWARD_WORKFLOW, LEAD_WORKFLOW, fakeLead, fakeWorld } from '@/test-support/fake-world';
import type { CountsRead } from '@/lib/experiments/counters';
import { countLeads, listLeads, SCAN_LIMIT } from '@/lib/staff/leads/list';
import type { World } from '@/lib/staff/leads/runs';
import type { StaffList } from '@/lib/staff/leads/list';
import { LeadsView } from './leads-view';

/*
 * Issue 50, point 5: a view of /equipo reads a bounded number of runs, however many leads the engine keeps, and its
 * totals come from the counters. The engine's client is the fake world of lib/staff/leads/'s tests (it counts the runs it
 * hands out); the counters' store and the area's actions are faked at their modules.
 */
let fake = fakeWorld();
jest.mock('workflow/runtime', () => ({ getWorld: () => fake.world }));
jest.mock('workflow/observability', () => ({
  observabilityRevivers: {},
  parseWorkflowName: (name: string) => ({ shortName: name.split('//').pop() }),
}));
jest.mock('@workflow/core/serialization-format', () => ({
  isEncryptedData: () => false,
  hydrateDataWithKey: async (value: unknown) => value,
}));
jest.mock('@workflow/core/encryption', () => ({ importKey: async () => undefined }));
jest.mock('@/lib/staff/actions', () => ({
  releaseSpam: async () => undefined,
  leave: async () => undefined,
}));
jest.mock('./forget-form', () => ({ ForgetForm: () => null }));
const mockReadCounts = jest.fn<Promise<CountsRead>, unknown[]>();
jest.mock('@/lib/experiments/counters', () => ({
  readCounts: (...args: unknown[]) => mockReadCounts(...args),
}));

const DEAD = { outcome: 'dead', reason: 'refused', deadAt: Date.UTC(2026, 10, 2) } as const;
const COUNTING: CountsRead = {
  counting: true,
  days: ['2026-11-01', '2026-11-02'],
  experiments: {},
  outcomes: {
    received: [700, 300],
    live: [500, 200],
    later: [40, 10],
    spam: [100, 50],
    dead: [30, 20],
  },
};

/** 1,000 leads kept, oldest first: a quarter each held, dead letters, held spam, and copies sent on (not leads). */
function thousandLeadsKept() {
  fake = fakeWorld();
  for (let n = 1; n <= 1000; n += 1) {
    const lead = fakeLead(n);
    if (n % 4 === 0)
      fake.addRun(n, FORWARD_WORKFLOW, 'running', [{ key: lead.key, enquiry: lead.enquiry }]);
    else if (n % 4 === 1) fake.addRun(n, LEAD_WORKFLOW, 'completed', [lead], DEAD);
    else if (n % 4 === 2) {
      const held = fake.addRun(n, LEAD_WORKFLOW, 'running', [{ ...lead, spamRule: 'only-links' }]);
      fake.addReleaseHook(held.runId, lead.key);
    } else fake.addRun(n, LEAD_WORKFLOW, 'running', [lead]);
  }
}

/** One view of the page, as a signed-in staff member opens it: its HTML and the runs it read. */
async function view(list: StaffList, cursor?: string) {
  const before = fake.handedOut();
  const html = renderToStaticMarkup(await LeadsView({ email: 'equipo@agencia.mx', list, cursor }));
  return { html, runsRead: fake.handedOut() - before };
}

beforeEach(() => {
  mockReadCounts.mockReset();
  mockReadCounts.mockResolvedValue(COUNTING);
});

describe('a view of /equipo with 1,000 leads kept', () => {
  beforeEach(thousandLeadsKept);

  it('reads at most one bounded page of runs, whichever list it shows', async () => {
    const reads: Record<string, number> = {};
    for (const list of ['spam', 'dead', 'pending'] as const)
      reads[list] = (await view(list)).runsRead;
    for (const runs of Object.values(reads)) expect(runs).toBeLessThanOrEqual(SCAN_LIMIT);
    // A page of 50 of a quarter of the runs: about 200 runs read, not 1,000.
    expect(reads).toEqual({ spam: 199, dead: 200, pending: 198 });
  });

  it('where the totals once read every run: the same view read 1,000 runs more', async () => {
    // What the page did before (countLeads() beside the listing), measured on the same world.
    await countLeads(fake.world as unknown as World);
    const counted = fake.handedOut();
    await listLeads({ states: ['spam'] });
    expect({ counted, withListing: fake.handedOut() }).toEqual({
      counted: 1000,
      withListing: 1199,
    });
  });

  it('shows the totals of the counters, for the days they say, with what they count', async () => {
    const { html } = await view('spam');
    expect(mockReadCounts).toHaveBeenCalledWith(expect.any(Array), 90);
    const totals = html.slice(html.indexOf('aria-label="Totales"'), html.indexOf('</ul>'));
    expect(totals).toContain('Recibidas: 1000');
    expect(totals).toContain('Entregadas al momento: 700');
    expect(totals).toContain('Entregadas al reintentar: 50');
    expect(totals).toContain('Posible spam: 150');
    expect(totals).toContain('No entregadas: 50');
    expect(html).toContain('también las apartadas como posible spam');
  });
});

describe('a view of /equipo when the leads are many more than it may read', () => {
  it('stops at SCAN_LIMIT runs on a list with nothing in them, and offers the next page', async () => {
    fake = fakeWorld();
    for (let n = 1; n <= 1000; n += 1)
      fake.addRun(n, LEAD_WORKFLOW, 'completed', [fakeLead(n)], DEAD);
    const first = await view('pending');
    expect(first.runsRead).toBe(SCAN_LIMIT);
    expect(first.html).toContain('Nada en esta lista.');
    const next = first.html.match(/href="\/equipo\?lista=pending&amp;desde=([^"]+)"/)?.[1];
    expect(next).toEqual(expect.any(String));
    expect((await view('pending', decodeURIComponent(next ?? ''))).runsRead).toBe(SCAN_LIMIT);
  });
});

describe('a view of /equipo that cannot count', () => {
  beforeEach(() => {
    fake = fakeWorld();
    fake.addRun(1, LEAD_WORKFLOW, 'completed', [fakeLead(1)], DEAD);
  });

  it('says why, rather than numbers of its own', async () => {
    mockReadCounts.mockResolvedValue({
      counting: false,
      why: 'sin REDIS_URL cada servidor contaría solo lo suyo',
    });
    const { html } = await view('dead');
    expect(html).toContain('No se puede contar: sin REDIS_URL cada servidor contaría solo lo suyo');
    expect(html).not.toMatch(/Recibidas: \d/);
    // The list is read all the same.
    expect(html).toContain('persona1@example.mx');
  });

  it('says so when the counters’ store fails, and still shows the list', async () => {
    mockReadCounts.mockRejectedValue(new Error('ECONNREFUSED'));
    const { html } = await view('dead');
    expect(html).toContain('No se puede contar: el almacén de los contadores no respondió');
    expect(html).toContain('persona1@example.mx');
  });
});
