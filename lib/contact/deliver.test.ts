/**
 * @jest-environment node
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LeadSource } from '@/lib/contact/source';
import type { Lead } from './lead/lead';
import type { ContactState } from './state';

/*
 * What the Server Action hands over (deliverEnquiry, quarantineEnquiry), at its boundaries: fetch (the contact API),
 * the engine's start(), and the counters' store. A lead carries the variant its page showed to the agency's own
 * places; the contact API gets the spec's fields, no more. Each lead is counted once it is delivered or held.
 */
const mockStart = jest.fn(async (..._args: unknown[]): Promise<{ runId: string }> => ({
  runId: `wrun_${randomUUID()}`,
}));
jest.mock('workflow/api', () => ({ start: (...args: unknown[]) => mockStart(...args) }));
jest.mock('./lead/workflow', () => ({ leadWorkflow: { workflowId: 'leadWorkflow' } }));
jest.mock('./lead/forward-workflow', () => ({
  forwardWorkflow: { workflowId: 'forwardWorkflow' },
}));
jest.mock('./lead/forget-workflow', () => ({ forgetInboxLater: async () => undefined }));
const mockCount = jest.fn(async (..._args: unknown[]) => undefined);
jest.mock('@/lib/experiments/counters', () => ({
  countOutcome: (...args: unknown[]) => mockCount(...args),
}));

type Deliver = typeof import('./deliver');
const API = {
  CONTACT_API_BASE_URL: 'http://127.0.0.1:9/api/',
  CONTACT_SITE_KEY: 'clave-del-sitio',
};
const saved = { ...process.env };

/** The module with a fresh environment (the env module reads it once). */
function load(env: Record<string, string>): Deliver {
  process.env = { ...saved, ...env };
  for (const name of ['CONTACT_API_BASE_URL', 'CONTACT_SITE_KEY', 'CONTACT_INBOX_DIR', 'VERCEL'])
    if (!(name in env)) delete process.env[name];
  let loaded: Deliver | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual('./deliver') as Deliver;
  });
  return loaded as Deliver;
}

const enquiry = {
  name: 'Ana Variante',
  mail: 'ana.variante@example.mx',
  phone: '5587654321',
  reason: 'Quiero una tienda en línea.',
  captcha: '',
};
const source: LeadSource = {
  last: { utm_source: 'google', landing: '/', at: 1 },
  experiments: [{ name: 'titular-verano', variant: 'b' }],
};
const known = () => ({ answerBy: Date.now() + 3600, source });
const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status });
// Down, asking for an hour: one attempt, no retry within the live try.
const down = () => new Response('{}', { status: 503, headers: { 'Retry-After': '3600' } });

let fetchMock: jest.Mock;
beforeEach(() => {
  fetchMock = jest.fn();
  global.fetch = fetchMock as unknown as typeof fetch;
  for (const level of ['info', 'warn', 'error'] as const)
    jest.spyOn(console, level).mockImplementation(() => {});
});
afterEach(() => {
  process.env = { ...saved };
  mockStart.mockClear();
  mockCount.mockClear();
  jest.restoreAllMocks();
});

/** The bodies the contact API was sent. */
const bodies = () =>
  fetchMock.mock.calls.map((call) => String((call as [URL, RequestInit])[1].body));
const started = (): Lead[] => mockStart.mock.calls.map((call) => (call[1] as [Lead])[0]);
const counted = () => mockCount.mock.calls.map(([outcome]) => outcome);

describe('a lead from a variant of the page', () => {
  it('gives the contact API the five fields of the spec, live and when held, and the engine the variant', async () => {
    const { deliverEnquiry } = load(API);
    fetchMock
      .mockResolvedValueOnce(json(200, { success: true }))
      .mockImplementation(async () => down());
    expect(await deliverEnquiry(enquiry, known())).toMatchObject({ status: 'sent' });
    expect(await deliverEnquiry(enquiry, known())).toMatchObject({ status: 'sent' });
    expect(bodies().length).toBeGreaterThanOrEqual(2);
    for (const body of bodies()) {
      expect(Object.keys(JSON.parse(body))).toEqual(['name', 'mail', 'reason', 'phone', 'captcha']);
      expect(body).not.toMatch(/titular-verano|experiment|utm_source/);
    }
    // The held one keeps it, for the alert, the webhook, the export and the staff page.
    expect(started()).toEqual([expect.objectContaining({ source })]);
  });

  it('keeps it in the local inbox without a contact API', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bandeja-'));
    try {
      const { deliverEnquiry } = load({ CONTACT_INBOX_DIR: dir });
      expect(await deliverEnquiry(enquiry, known())).toMatchObject({ status: 'sent' });
      const [line] = readFileSync(path.join(dir, 'enquiries.jsonl'), 'utf8').trim().split('\n');
      expect(JSON.parse(line ?? '{}').source.experiments).toEqual([
        { name: 'titular-verano', variant: 'b' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("the staff page's totals: each lead counted once it is delivered or held", () => {
  const sent = (state: ContactState) => expect(state).toMatchObject({ status: 'sent' });

  it('delivered live: received and live, on the day it came', async () => {
    const { deliverEnquiry } = load(API);
    fetchMock.mockResolvedValue(json(200, { success: true }));
    sent(await deliverEnquiry(enquiry, known()));
    expect(counted()).toEqual(['received', 'live']);
    expect(mockCount.mock.calls.map(([, at]) => typeof at)).toEqual(['number', 'number']);
  });

  it('saved to the local inbox: received and live', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bandeja-'));
    try {
      sent(await load({ CONTACT_INBOX_DIR: dir }).deliverEnquiry(enquiry, known()));
      expect(counted()).toEqual(['received', 'live']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('held for later: received now; its workflow counts later or dead', async () => {
    const { deliverEnquiry } = load(API);
    fetchMock.mockImplementation(async () => down());
    sent(await deliverEnquiry(enquiry, known()));
    expect(counted()).toEqual(['received']);
  });

  it('refused live, or not held by the engine: nothing, for the visitor is told to try again', async () => {
    const { deliverEnquiry } = load(API);
    fetchMock.mockResolvedValueOnce(json(400, { success: false, mes: 'No' }));
    // Refused: no key to keep (an API that replays a key's answer would refuse the same words forever).
    expect(await deliverEnquiry(enquiry, known())).toEqual({ status: 'failed', mes: 'No' });
    fetchMock.mockImplementation(async () => down());
    mockStart.mockRejectedValueOnce(new Error('disco lleno'));
    // Not held in time: the run may still land, so its key goes back for the same words sent again.
    expect(await deliverEnquiry(enquiry, { ...known(), key: 'clave-de-antes' })).toEqual({
      status: 'failed',
      resend: 'clave-de-antes',
    });
    expect(counted()).toEqual([]);
  });

  it('a suspected spam held apart: received and spam; one the engine did not hold, nothing', async () => {
    const { quarantineEnquiry } = load(API);
    sent(await quarantineEnquiry(enquiry, 'only-links', known()));
    expect(counted()).toEqual(['received', 'spam']);
    mockStart.mockRejectedValueOnce(new Error('disco lleno'));
    sent(await quarantineEnquiry(enquiry, 'only-links', known()));
    expect(counted()).toEqual(['received', 'spam']);
    expect(fetchMock).not.toHaveBeenCalled();
  });
});
