import type { ContactValues, FieldErrors } from './fields';

/** What the server action answers and the form renders. */
export type ContactState =
  | { status: 'idle' }
  /**
   * Thanked. `key` is the enquiry's idempotency key (a random UUID, nothing
   * personal): the Ads conversion's transaction id, so a lead counts once.
   * Without a key there is no lead to count: a suspected spam is thanked like
   * anyone else, but converts nothing.
   */
  | { status: 'sent'; key?: string }
  /**
   * The input broke a rule: nothing was sent anywhere. `values` are what was
   * posted, so a page rendered from this state (a form sent without
   * JavaScript) gives every typed value back.
   */
  | { status: 'invalid'; fieldErrors: FieldErrors; values?: Partial<ContactValues>; token?: string }
  /**
   * Not delivered. `mes` is the contact API's own words, when it gave any;
   * `reason` picks our own message when it did not.
   */
  | { status: 'failed'; mes?: string; reason?: FailureReason; values?: Partial<ContactValues>; token?: string }
  /**
   * Sent without a valid signature of the form's time on screen (no
   * JavaScript, or before hydration): nothing was stored; the next press,
   * with `token`, is accepted.
   */
  | { status: 'confirm'; values: ContactValues; token: string };

/** rate-limited: too many enquiries from this IP; stale: the page is from an older deployment. */
export type FailureReason = 'rate-limited' | 'stale';

export const INITIAL_CONTACT_STATE: ContactState = { status: 'idle' };
