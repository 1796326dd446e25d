/**
 * @jest-environment node
 */
import { CircuitBreaker, contactApiBreaker } from './breaker';

let clock: number;
let warn: jest.SpyInstance;
// The mechanism with a threshold of 2 failures; the default (3 enquiries) has its own test below.
const breaker = (options: ConstructorParameters<typeof CircuitBreaker>[0] = {}) => new CircuitBreaker({ now: () => clock, failureThreshold: 2, ...options });
/** Two failures in a row, at the current time: open with the first cool-off. */
const openNow = (b: CircuitBreaker) => {
  b.record('down');
  b.record('down');
};

beforeEach(() => {
  clock = 1_000_000;
  warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => jest.restoreAllMocks());

it('lets every call through while closed, and one failure does not open it', () => {
  const b = breaker();
  expect(b.admit()).toBe('send');
  b.record('down');
  expect(b.state()).toBe('closed');
  expect(b.openUntil).toBeUndefined();
  expect(b.admit()).toBe('send');
});

it('a success in between resets the count', () => {
  const b = breaker();
  b.record('down');
  b.record('up');
  b.record('down');
  expect(b.state()).toBe('closed');
});

it('opens after 2 failures in a row for 30 s, and skips everyone meanwhile', () => {
  const b = breaker();
  openNow(b);
  expect(b.state()).toBe('open');
  expect(b.openUntil).toBe(clock + 30_000);
  for (let i = 0; i < 5; i++) expect(b.admit()).toBe('skip');
  clock += 29_999;
  expect(b.admit()).toBe('skip');
});

it('once the cool-off is over, hands the probe to one caller at a time', () => {
  const b = breaker();
  openNow(b);
  clock += 30_000;
  expect(b.state()).toBe('half-open');
  expect(b.admit()).toBe('probe');
  expect(b.admit()).toBe('skip');
  expect(b.admit()).toBe('skip');
});

it('closes when the probe succeeds', () => {
  const b = breaker();
  openNow(b);
  clock += 30_000;
  b.admit();
  b.record('up');
  expect(b.state()).toBe('closed');
  expect(b.admit()).toBe('send');
  expect(b.admit()).toBe('send');
});

it('reopens when the probe fails, each time twice as long, up to 10 minutes', () => {
  const b = breaker();
  openNow(b);
  const lengths: number[] = [];
  for (let i = 0; i < 7; i++) {
    clock = b.openUntil ?? clock;
    expect(b.admit()).toBe('probe');
    b.record('down');
    expect(b.state()).toBe('open');
    lengths.push((b.openUntil ?? 0) - clock);
  }
  expect(lengths).toEqual([60_000, 120_000, 240_000, 480_000, 600_000, 600_000, 600_000]);
});

it('starts again from 30 s after it has closed', () => {
  const b = breaker();
  openNow(b);
  clock += 30_000;
  b.admit();
  b.record('down'); // 60 s
  clock += 60_000;
  b.admit();
  b.record('up');
  openNow(b);
  expect((b.openUntil ?? 0) - clock).toBe(30_000);
});

it('frees the probe slot after 15 s when the probe never reports back', () => {
  const b = breaker();
  openNow(b);
  clock += 30_000;
  expect(b.admit()).toBe('probe');
  clock += 14_999;
  expect(b.admit()).toBe('skip');
  clock += 1;
  expect(b.admit()).toBe('probe');
});

it("one enquiry's Retry-After does not open it alone (the enquiry honours it); with the others, it opens for at least that long", () => {
  const b = breaker();
  b.record('down', 120_000);
  expect(b.state()).toBe('closed');
  b.record('down', 120_000);
  expect(b.state()).toBe('open');
  expect(b.openUntil).toBe(clock + 120_000);
});

it('a short Retry-After still opens it for the whole cool-off', () => {
  const b = breaker();
  b.record('down', 1000);
  b.record('down', 1000);
  expect(b.openUntil).toBe(clock + 30_000);
});

it('a Retry-After that arrives while open lengthens the opening, never shortens it', () => {
  const b = breaker();
  openNow(b);
  b.record('down', 5000);
  expect(b.openUntil).toBe(clock + 30_000);
  b.record('down', 300_000);
  expect(b.openUntil).toBe(clock + 300_000);
});

it('takes its thresholds from the options', () => {
  const b = breaker({ failureThreshold: 3, coolOffMs: 1000, maxCoolOffMs: 1500, probeTimeoutMs: 100 });
  openNow(b);
  expect(b.state()).toBe('closed');
  b.record('down');
  expect(b.openUntil).toBe(clock + 1000);
  clock += 1000;
  expect(b.admit()).toBe('probe');
  clock += 100;
  expect(b.admit()).toBe('probe');
  b.record('down');
  expect(b.openUntil).toBe(clock + 1500);
});

it('says in the log, once, when it opens and when it closes again', () => {
  const b = breaker();
  openNow(b);
  b.record('down');
  clock += 30_000;
  b.admit();
  b.record('down'); // reopens: nothing new to say
  clock += 60_000;
  b.admit();
  b.record('up');
  b.record('up');
  const lines = warn.mock.calls.map(([line]) => String(line));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^\[contacto\] La API de contacto está fallando: se deja de llamarla hasta las /);
  expect(lines[1]).toBe('[contacto] La API de contacto vuelve a responder: se reanudan los envíos.');
});

it('reset closes it with no history and no log line', () => {
  const b = breaker();
  openNow(b);
  warn.mockClear();
  b.reset();
  expect(b.state()).toBe('closed');
  b.record('down');
  expect(b.state()).toBe('closed');
  expect(warn).not.toHaveBeenCalled();
});

it("the process's shared breaker starts closed", () => {
  contactApiBreaker.reset();
  expect(contactApiBreaker.state()).toBe('closed');
  expect(contactApiBreaker.admit()).toBe('send');
});

it('by default opens on the calls of 5 different enquiries failing in a row; one enquiry failing twice counts once', () => {
  const b = new CircuitBreaker({ now: () => clock });
  b.record('down', undefined, clock, 'enquiry-a');
  // The same enquiry's background retry: not a new failure.
  b.record('down', undefined, clock, 'enquiry-a');
  for (const key of ['b', 'c', 'd']) b.record('down', undefined, clock, `enquiry-${key}`);
  expect(b.state()).toBe('closed');
  b.record('down', undefined, clock, 'enquiry-e');
  expect(b.state()).toBe('open');
});

it('an answer in between starts the count again', () => {
  const b = new CircuitBreaker({ now: () => clock });
  for (const key of ['a', 'b', 'c', 'd']) b.record('down', undefined, clock, key);
  b.record('up');
  for (const key of ['e', 'f', 'g', 'h']) b.record('down', undefined, clock, key);
  expect(b.state()).toBe('closed');
});

it('a scheduled flush may probe during the cool-off, one at a time; nobody else may', () => {
  const b = breaker();
  b.record('down');
  b.record('down');
  expect(b.admit()).toBe('skip');
  expect(b.admit(clock, { force: true })).toBe('probe');
  expect(b.admit(clock, { force: true })).toBe('skip');
  b.record('up');
  expect(b.admit()).toBe('send');
});
