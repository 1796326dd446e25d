/*
 * PLACEHOLDER, to be replaced at merge by the counters store written in another branch (issue 50, point 3):
 * same two functions, same signatures. They do nothing here, so the proxy and the contact action can call them.
 */

/** Counts one visitor of `variant` on the day of `at` (ms; default now). */
export function countVisit(experiment: string, variant: string, at?: number): Promise<void> {
  void [experiment, variant, at];
  return Promise.resolve();
}

/** Counts one confirmed person's lead from `variant` on the day of `at` (ms; default now). */
export function countLead(experiment: string, variant: string, at?: number): Promise<void> {
  void [experiment, variant, at];
  return Promise.resolve();
}
