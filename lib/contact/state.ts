import type { ContactValues, FieldErrors } from './fields';

/** What the server action answers and the form renders. */
export type ContactState =
  | { status: 'idle' }
  /** `key` (a random UUID) is the Ads conversion's transaction id, so a lead counts once; suspected spam has none. */
  | { status: 'sent'; key?: string }
  /** Nothing was sent. `values` as posted, so a page rendered from this state (no JavaScript) gives them back. */
  | { status: 'invalid'; fieldErrors: FieldErrors; values?: Partial<ContactValues>; token?: string }
  /**
   * `mes` is the contact API's own words, when it gave any; `reason` picks our own message when it did not. `resend`:
   * the key of a lead the engine may still deliver, signed by the action, so the same words sent again keep it
   * (lib/contact/resend-key.ts).
   */
  | {
      status: 'failed';
      mes?: string;
      reason?: FailureReason;
      values?: Partial<ContactValues>;
      token?: string;
      resend?: string;
    }
  /** No valid signature (no JavaScript, or before hydration): nothing stored; the next press, with `token`, counts. */
  | { status: 'confirm'; values: ContactValues; token: string };

/** rate-limited: too many enquiries from this IP; stale: the page is from an older deployment. */
export type FailureReason = 'rate-limited' | 'stale';

export const INITIAL_CONTACT_STATE: ContactState = { status: 'idle' };
