import type { FieldErrors } from './schema';

/** What the server action answers and the form renders. */
export type ContactState =
  | { status: 'idle' }
  | { status: 'sent' }
  /** The input broke a rule: nothing was sent anywhere. */
  | { status: 'invalid'; fieldErrors: FieldErrors }
  /** Not delivered. `mes` is the contact API's own words, when it gave any. */
  | { status: 'failed'; mes?: string };

export const INITIAL_CONTACT_STATE: ContactState = { status: 'idle' };
