/**
 * A circuit breaker in front of the contact API, one per process: once calls for
 * several different enquiries in a row have failed, live sends of stored enquiries
 * stop calling it for a while (each is thanked from the outbox), and redelivery
 * sends one probe at a time until the API answers again.
 */

/** What a caller may do now: call as usual, make the one trial call, or not call at all. */
export type Admission = 'send' | 'probe' | 'skip';
/** How an attempt went for the API's health: it answered (even with a refusal), or it is failing. */
export type ApiHealth = 'up' | 'down';
export type BreakerState = 'closed' | 'open' | 'half-open';

export type CircuitBreakerOptions = {
  /** Consecutive failures that open it. */
  failureThreshold?: number;
  /** How long the first opening lasts; each consecutive reopening doubles it. */
  coolOffMs?: number;
  /** The doubling stops here: the API is probed at least this often. */
  maxCoolOffMs?: number;
  /** A probe whose outcome never arrives (its function was cut short) frees the slot after this. */
  probeTimeoutMs?: number;
  now?: () => number;
};

export const BREAKER_DEFAULTS = {
  // Failed calls of different enquiries in a row: one enquiry's own retries (the spec's 3) or its Retry-After
  // never open it alone, so one visitor's trouble never costs the next ones their live send.
  failureThreshold: 5,
  coolOffMs: 30_000,
  maxCoolOffMs: 10 * 60 * 1000,
  // Longer than one attempt (2.5 s) and than a whole call (7.5 s), so a live probe is never cut off.
  probeTimeoutMs: 15_000,
} as const;

const clockTime = new Intl.DateTimeFormat('es-MX', { timeStyle: 'medium', timeZone: 'America/Mexico_City' });

export class CircuitBreaker {
  private readonly failureThreshold: number;
  private readonly coolOffMs: number;
  private readonly maxCoolOffMs: number;
  private readonly probeTimeoutMs: number;
  private readonly clock: () => number;

  private consecutiveFailures = 0;
  /** The enquiries among them: a key's second failed call (its background retry) is not a new failure. */
  private readonly failedKeys = new Set<string>();
  /** Openings since it was last closed: the cool-off doubles with each. */
  private openings = 0;
  /** Closed when undefined; open before this time (ms), half-open after it. */
  private until: number | undefined;
  /** The probe slot is taken until this time (ms). */
  private probeUntil = 0;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = options.failureThreshold ?? BREAKER_DEFAULTS.failureThreshold;
    this.coolOffMs = options.coolOffMs ?? BREAKER_DEFAULTS.coolOffMs;
    this.maxCoolOffMs = options.maxCoolOffMs ?? BREAKER_DEFAULTS.maxCoolOffMs;
    this.probeTimeoutMs = options.probeTimeoutMs ?? BREAKER_DEFAULTS.probeTimeoutMs;
    this.clock = options.now ?? Date.now;
  }

  state(now = this.clock()): BreakerState {
    if (this.until === undefined) return 'closed';
    return now < this.until ? 'open' : 'half-open';
  }

  /** When the current opening ends (ms), for logs; undefined while closed. */
  get openUntil(): number | undefined {
    return this.until;
  }

  /**
   * Asked before every call. A 'probe' must be followed by its `record`. `force`: a
   * scheduled flush, paced already, may probe during the cool-off too (one at a time).
   */
  admit(now = this.clock(), { force = false }: { force?: boolean } = {}): Admission {
    const state = this.state(now);
    if (state === 'closed') return 'send';
    if ((state === 'open' && !force) || this.probeUntil > now) return 'skip';
    this.probeUntil = now + this.probeTimeoutMs;
    return 'probe';
  }

  /**
   * Told after every call; `retryAfterMs` is the API's own Retry-After, if it gave one;
   * `key`, the enquiry's: failures are counted once per enquiry.
   */
  record(health: ApiHealth, retryAfterMs?: number, now = this.clock(), key?: string): void {
    if (health === 'up') {
      this.close();
      return;
    }
    if (key === undefined || !this.failedKeys.has(key)) this.consecutiveFailures += 1;
    if (key !== undefined && this.failedKeys.size < 100) this.failedKeys.add(key);
    // One enquiry's Retry-After is honoured by that enquiry (its next attempt): it opens the circuit only with the others.
    const askedToWait = retryAfterMs !== undefined && retryAfterMs > 0;
    const state = this.state(now);
    if (state === 'half-open' || (state === 'closed' && this.consecutiveFailures >= this.failureThreshold)) {
      this.open(now, retryAfterMs ?? 0);
    } else if (state === 'open' && askedToWait) {
      // A call that began before it opened: its Retry-After can only lengthen the opening.
      this.until = Math.max(this.until ?? now, now + (retryAfterMs ?? 0));
    }
  }

  /** Closed again with no history and no log line (tests, and a process that starts over). */
  reset(): void {
    this.consecutiveFailures = 0;
    this.failedKeys.clear();
    this.openings = 0;
    this.until = undefined;
    this.probeUntil = 0;
  }

  private open(now: number, retryAfterMs: number): void {
    const coolOff = Math.min(this.coolOffMs * 2 ** this.openings, this.maxCoolOffMs);
    const wasClosed = this.until === undefined;
    this.openings += 1;
    this.until = now + Math.max(coolOff, retryAfterMs);
    this.probeUntil = 0;
    if (wasClosed) {
      console.warn(
        `[contacto] La API de contacto está fallando: se deja de llamarla hasta las ${clockTime.format(this.until)} (hora de la Ciudad de México); después se prueba con una solicitud a la vez. Las solicitudes quedan en la bandeja de salida.`,
      );
    }
  }

  private close(): void {
    const wasOpen = this.until !== undefined;
    this.reset();
    if (wasOpen) console.warn('[contacto] La API de contacto vuelve a responder: se reanudan los envíos.');
  }
}

/** The breaker every caller in this process shares (live requests, their after() work and the flush). */
export const contactApiBreaker = new CircuitBreaker();
