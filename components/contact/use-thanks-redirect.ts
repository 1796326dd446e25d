import { useEffect, useRef, type RefObject } from 'react';
import type { ContactState } from '@/lib/contact/state';
import { leaveAfterLead, type LeadContact } from '@/lib/browser/confirmed-lead';
import type { LeadExperiment } from '@/lib/experiments/lead-experiment';
import { navigateTo } from '@/lib/browser/navigation';

/** Spec: the browser leaves for the thank-you page 2000 ms after success. */
export const REDIRECT_DELAY_MS = 2000;

/**
 * Once thanked: focuses the thanks (returned ref, for its heading) and leaves for the thank-you page.
 * `lead`: the e-mail and phone the island sent, and `experiments` the variants the page is of, handed to the tags
 * with a confirmed lead.
 */
export function useThanksRedirect(
  state: ContactState,
  thankYouUrl: string,
  lead: RefObject<LeadContact | undefined>,
  experiments?: readonly LeadExperiment[],
) {
  const thanksRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (state.status !== 'sent') return;
    thanksRef.current?.focus();
    const leave = () => navigateTo(thankYouUrl);
    // The redirect waits up to 1 s more for the lead's Ads, GA and Meta events (a suspected spam has none).
    if (state.key)
      return leaveAfterLead(state.key, REDIRECT_DELAY_MS, leave, lead.current, experiments);
    const timer = setTimeout(leave, REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [state, thankYouUrl, lead, experiments]);

  return thanksRef;
}
