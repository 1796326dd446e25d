/** Raised by withTimeout: the work did not settle in time (it may still finish; its result is dropped). */
export class TimedOutError extends Error {
  constructor() {
    super('sin respuesta a tiempo');
    this.name = 'TimedOutError';
  }
}

/** `work`, or TimedOutError after `ms`: a caller that must answer in time never waits longer on a store. */
export function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOutError()), Math.max(0, ms));
  });
  // A late rejection of `work` is nobody's any more: kept from becoming an unhandled rejection.
  work.catch(() => {});
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}
