import { STUB_URL } from './test-env';

export type StubStep = Record<string, unknown>;

export type StubRecords = {
  attempts: Array<{
    at: number;
    siteKey: string | null;
    idempotencyKey?: string;
    contentType?: string;
    body: Record<string, string> | null;
  }>;
  stored: Array<{ key: string; enquiry: Record<string, string> }>;
};

/** A fresh e-mail per test: the stub keys its scripts and records by it. */
export function uniqueMail(tag: string): string {
  return `qa-${tag}-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}@example.mx`;
}

export async function setScenario(mail: string, steps: StubStep[]): Promise<void> {
  const response = await fetch(`${STUB_URL}/__scenarios`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ mail, steps }),
  });
  if (!response.ok) throw new Error(`stub scenario: ${response.status}`);
}

export async function records(mail: string): Promise<StubRecords> {
  const response = await fetch(`${STUB_URL}/__records?mail=${encodeURIComponent(mail)}`);
  return (await response.json()) as StubRecords;
}
