/**
 * @jest-environment node
 */
import {
  FORWARD_WORKFLOW,
  LEAD_WORKFLOW,
  fakeLead,
  fakeWorld,
  runIdAt,
} from '@/test-support/fake-world';
import { countLeads, listLeads, type LeadPage } from './list';
import type { LeadRun, World } from './runs';

/*
 * The staff page's listing and the counts `npm run leads -- status` prints, over a world of 1,000 runs. The SDK's
 * client is the one boundary faked (its ES modules do not load under Jest); its decoder is the identity here, as it is
 * for values already plain (hydrateData's fourth case).
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

const DEAD = { outcome: 'dead', reason: 'expired', deadAt: Date.UTC(2026, 10, 2) } as const;

/** 1,000 runs, oldest first: a fifth each delivered, dead, held spam, pending, and copies sent on (not leads). */
function thousandRuns() {
  fake = fakeWorld();
  for (let n = 1; n <= 1000; n += 1) {
    const lead = fakeLead(n);
    if (n % 5 === 0)
      fake.addRun(n, FORWARD_WORKFLOW, 'running', [{ key: lead.key, enquiry: lead.enquiry }]);
    else if (n % 5 === 1)
      fake.addRun(n, LEAD_WORKFLOW, 'completed', [lead], { outcome: 'delivered', rounds: 1 });
    else if (n % 5 === 2) fake.addRun(n, LEAD_WORKFLOW, 'completed', [lead], DEAD);
    else if (n % 5 === 3) {
      const held = fake.addRun(n, LEAD_WORKFLOW, 'running', [{ ...lead, spamRule: 'only-links' }]);
      // Every tenth spam was released already (no hook): it is being delivered, no longer held.
      if (n % 50 !== 3) fake.addReleaseHook(held.runId, lead.key);
    } else fake.addRun(n, LEAD_WORKFLOW, 'running', [lead]);
  }
}

async function everyPage(options: Parameters<typeof listLeads>[0] = {}): Promise<LeadPage[]> {
  const pages: LeadPage[] = [];
  for (let { cursor } = options; ;) {
    const page = await listLeads({ ...options, cursor });
    pages.push(page);
    if (!page.cursor) return pages;
    cursor = page.cursor;
  }
}

describe('the staff listing, over 1,000 runs', () => {
  beforeEach(thousandRuns);

  it('reads at most its bound in one call, shows at most a page, and says where to go on', async () => {
    const page = await listLeads({ scanLimit: 200, pageSize: 50 });
    expect(fake.handedOut()).toBeLessThanOrEqual(200);
    expect(page.scanned).toBe(fake.handedOut());
    expect(page.leads).toHaveLength(50);
    expect(page.cursor).toEqual(expect.any(String));
    // The newest runs first: run 999 (pending) is the newest lead.
    expect(page.leads[0]?.runId).toBe(runIdAt(999));
  });

  it('reaches every held lead, dead letter and spam by following the cursors, newest first, once each', async () => {
    const pages = await everyPage({ scanLimit: 120 });
    for (const page of pages) expect(page.scanned).toBeLessThanOrEqual(120);
    const ids = pages.flatMap((page) => page.leads.map((lead) => lead.runId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort().reverse());
    const states = pages.flatMap((page) => page.leads.map((lead) => lead.state));
    // 200 pending, 200 dead, 200 spam of which 20 released (being delivered: pending).
    expect(states.filter((state) => state === 'pending')).toHaveLength(220);
    expect(states.filter((state) => state === 'dead')).toHaveLength(200);
    expect(states.filter((state) => state === 'spam')).toHaveLength(180);
    // Every run read once in all: no page skipped one behind its cursor.
    expect(fake.handedOut()).toBe(1000);
  });

  it('stops at its bound when the runs it reads are not the staff’s, with a cursor to go on', async () => {
    fake = fakeWorld();
    // A busy week of copies sent on, and one dead letter before it.
    fake.addRun(1, LEAD_WORKFLOW, 'completed', [fakeLead(1)], DEAD);
    for (let n = 2; n <= 1000; n += 1)
      fake.addRun(n, FORWARD_WORKFLOW, 'completed', [{ key: `clave-${n}` }]);
    const first = await listLeads({ scanLimit: 200 });
    expect(first).toEqual({ leads: [], scanned: 200, cursor: expect.any(String) });
    expect(fake.handedOut()).toBe(200);
    const pages = await everyPage({ scanLimit: 200, cursor: first.cursor });
    expect(pages.flatMap((page) => page.leads.map((lead) => lead.lead.key))).toEqual(['clave-1']);
  });

  it('says when each will be forgotten, or until when it is redelivered', async () => {
    const { leads } = await listLeads({ pageSize: 10 });
    const byState = (state: LeadRun['state']) => leads.find((lead) => lead.state === state);
    const spam = byState('spam');
    expect(spam?.forgetAt).toBe((spam?.lead.receivedAt ?? 0) + 30 * 24 * 60 * 60 * 1000);
    expect(byState('dead')?.forgetAt).toBe(DEAD.deadAt + 30 * 24 * 60 * 60 * 1000);
    const pending = byState('pending');
    expect(pending?.retriedUntil).toBe((pending?.lead.receivedAt ?? 0) + 24 * 60 * 60 * 1000);
  });

  it('counts what the listing classifies, state by state', async () => {
    const counts = await countLeads(fake.world as unknown as World);
    const listed = (
      await everyPage({
        states: Object.keys(counts).filter((key) => key !== 'oldestPending') as never,
      })
    )
      .flatMap((page) => page.leads)
      .reduce<Record<string, number>>(
        (sum, lead) => ({ ...sum, [lead.state]: (sum[lead.state] ?? 0) + 1 }),
        {},
      );
    expect(counts).toMatchObject(listed);
    expect(counts).toMatchObject({ pending: 220, dead: 200, spam: 180, delivered: 200, failed: 0 });
    expect(counts.oldestPending).toBe(fakeLead(3).receivedAt);
  });
});
