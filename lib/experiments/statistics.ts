/**
 * The arithmetic behind an experiment's result on /equipo: how sure a rate is, how likely a variant beats the
 * control, whether the traffic split is what was configured, and whether a winner can be named yet.
 * Plain functions of counts, no I/O, so the page, the CLI and the tests read the same numbers.
 */

export type Arm = { visitors: number; leads: number };

/** Counts come from separate per-day counters: a lead can be counted on a day whose visit was not. */
function clean(arm: Arm): Arm {
  const whole = (n: number) => (Number.isFinite(n) && n > 0 ? Math.floor(n) : 0);
  const visitors = whole(arm.visitors);
  return { visitors, leads: Math.min(whole(arm.leads), visitors) };
}

/** The 97.5th percentile of the standard normal: a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/**
 * The conversion rate and its 95% Wilson score interval. Wilson rather than the textbook Wald interval
 * (rate ± 1.96·SE) because a landing page converts at a few per cent: with few leads Wald gives an interval of
 * zero width at 0 leads, dips below 0 and covers the true rate far less than 95% of the time; Wilson stays
 * inside [0, 1] and keeps close to its nominal coverage at small counts (Brown, Cai & DasGupta, 2001).
 */
export function conversionInterval(arm: Arm): { rate: number; low: number; high: number } {
  const { visitors: n, leads: k } = clean(arm);
  if (n === 0) return { rate: 0, low: 0, high: 1 };
  const rate = k / n;
  const z2 = Z95 * Z95;
  const shrink = 1 + z2 / n;
  const centre = (rate + z2 / (2 * n)) / shrink;
  const half = (Z95 / shrink) * Math.sqrt((rate * (1 - rate)) / n + z2 / (4 * n * n));
  return {
    rate,
    // At 0 leads (or all of them) the bound is exactly 0 (or 1); the subtraction would leave rounding dust.
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === n ? 1 : Math.min(1, centre + half),
  };
}

/** ln Γ(x) for x ≥ 0.5, all this file needs (Lanczos, g = 7, n = 9: about 15 significant digits). */
function lnGamma(x: number): number {
  const c = [
    0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313,
    -176.61502916214059, 12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6,
    1.5056327351493116e-7,
  ];
  const y = x - 1;
  let sum = c[0] ?? 1;
  for (let i = 1; i < c.length; i++) sum += (c[i] ?? 0) / (y + i);
  const t = y + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (y + 0.5) * Math.log(t) - t + Math.log(sum);
}

function lnBeta(a: number, b: number): number {
  return lnGamma(a) + lnGamma(b) - lnGamma(a + b);
}

/**
 * P(Y > X) for X ~ Beta(aX, bX), Y ~ Beta(aY, bY), aY a whole number: the closed form as a sum of aY positive
 * terms (Evan Miller, "Formulas for Bayesian A/B testing", 2015). Each term is the previous one times a
 * rational factor, summed in log space, so 10⁶ visitors neither overflow nor underflow.
 */
function chanceAbove(aX: number, bX: number, aY: number, bY: number): number {
  let logTerm = lnBeta(aX, bX + bY) - lnBeta(aX, bX);
  let logMax = logTerm;
  let scaled = 1;
  for (let i = 1; i < aY; i++) {
    logTerm += Math.log(((aX + i - 1) * (bY + i - 1)) / ((aX + bX + bY + i - 1) * i));
    if (logTerm > logMax) {
      scaled = scaled * Math.exp(logMax - logTerm) + 1;
      logMax = logTerm;
    } else {
      scaled += Math.exp(logTerm - logMax);
    }
  }
  return Math.exp(logMax + Math.log(scaled));
}

/**
 * Beyond this many terms (a quarter of a million leads and non-leads in every arm, about 25 ms) both posteriors
 * are normal to within a skew of 0.004, and their difference closer still: the normal answer is then as good as
 * the exact one, and the cost stays bounded however long an experiment runs.
 */
const EXACT_TERMS_MAX = 250_000;

function normalChance(aC: number, bC: number, aV: number, bV: number): number {
  const mean = (a: number, b: number) => a / (a + b);
  const variance = (a: number, b: number) => (a * b) / ((a + b) ** 2 * (a + b + 1));
  const z = (mean(aV, bV) - mean(aC, bC)) / Math.sqrt(variance(aC, bC) + variance(aV, bV));
  // Φ(z) through the χ² tail: P(|Z| > |z|) = P(χ²₁ > z²).
  const tails = chiSquaredSurvival(z * z, 1);
  return z >= 0 ? 1 - tails / 2 : tails / 2;
}

/**
 * The chance that the variant's true rate is above the control's: P(p_variant > p_control) with a uniform prior,
 * so each posterior is Beta(1 + leads, 1 + visitors − leads). This is the beta-binomial model GrowthBook's
 * Bayesian engine was built on; GrowthBook approximates the answer (a log-normal fit of each beta posterior in
 * older gbstats; in current gbstats, a normal on the relative uplift by the delta method with a flat prior),
 * which drifts at the small counts a landing page has: for 100/1,000 against 130/1,000 the exact answer and the
 * log-normal give 0.98, the delta method 0.97. We compute it exactly instead: deterministic, no sampling; the
 * sum runs over whichever of the four posterior parameters is smallest (at most half an arm's visitors, plus
 * one), and past EXACT_TERMS_MAX the normal limit, as exact by then, takes over.
 */
export function chanceToBeatControl(control: Arm, variant: Arm): number {
  const c = clean(control);
  const v = clean(variant);
  const aC = 1 + c.leads;
  const bC = 1 + c.visitors - c.leads;
  const aV = 1 + v.leads;
  const bV = 1 + v.visitors - v.leads;
  // Four equal ways to write the same probability (swap the arms, or compare 1 − p): pick the shortest sum.
  const shortest = Math.min(aV, aC, bC, bV);
  if (shortest > EXACT_TERMS_MAX) return normalChance(aC, bC, aV, bV);
  let chance: number;
  if (shortest === aV) chance = chanceAbove(aC, bC, aV, bV);
  else if (shortest === aC) chance = 1 - chanceAbove(aV, bV, aC, bC);
  else if (shortest === bC) chance = chanceAbove(bV, aV, bC, aC);
  else chance = 1 - chanceAbove(bC, aC, bV, aV);
  return Math.min(1, Math.max(0, chance));
}

/** Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma (Numerical Recipes, 3rd ed., §6.2). */
function upperGammaRegularized(a: number, x: number): number {
  if (x <= 0) return 1;
  const logPrefix = a * Math.log(x) - x - lnGamma(a);
  if (x < a + 1) {
    // The series for the lower part converges fast here.
    let term = 1 / a;
    let sum = term;
    for (let n = 1; n < 500 && Math.abs(term) > Math.abs(sum) * 1e-15; n++) {
      term *= x / (a + n);
      sum += term;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  // The continued fraction for the upper part (modified Lentz) converges fast here.
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const step = d * c;
    h *= step;
    if (Math.abs(step - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(logPrefix) * h);
}

/** P(χ² ≥ x) with `df` degrees of freedom. */
export function chiSquaredSurvival(x: number, df: number): number {
  return upperGammaRegularized(df / 2, x / 2);
}

/** Below this p-value the split is called off: strict, because the page is looked at every day (many tests). */
export const SRM_P_VALUE = 0.001;

/**
 * Sample ratio mismatch: a chi-squared goodness-of-fit test of the visitors each arm got against the configured
 * split. A mismatch means something counts or assigns visitors unevenly (a cache, a crawler, a redirect), and
 * no conversion rate can be trusted until it is found. `shares` may sum to 1 or to 100: only their ratio counts.
 */
export function sampleRatioMismatch(
  visitors: number[],
  shares: number[],
): { chiSquared: number; pValue: number; mismatch: boolean } {
  if (visitors.length !== shares.length || shares.length < 2) {
    throw new RangeError(
      `sampleRatioMismatch: ${visitors.length} counts for ${shares.length} shares`,
    );
  }
  if (!shares.every((share) => Number.isFinite(share) && share > 0)) {
    throw new RangeError(
      `sampleRatioMismatch: every share must be above 0, got ${shares.join(', ')}`,
    );
  }
  const counts = visitors.map((n) => clean({ visitors: n, leads: 0 }).visitors);
  const total = counts.reduce((sum, n) => sum + n, 0);
  const shareSum = shares.reduce((sum, share) => sum + share, 0);
  if (total === 0) return { chiSquared: 0, pValue: 1, mismatch: false };
  const chiSquared = counts.reduce((sum, observed, i) => {
    const expected = (total * (shares[i] ?? 0)) / shareSum;
    return sum + (observed - expected) ** 2 / expected;
  }, 0);
  const pValue = chiSquaredSurvival(chiSquared, counts.length - 1);
  return { chiSquared, pValue, mismatch: pValue < SRM_P_VALUE };
}

/**
 * When a winner may be named, fixed in the experiment's definition before anyone looks at the result.
 * The defaults suit a small business's landing page converting at 2–10%:
 * - 100 leads per arm: at these rates the evidence is in the leads, not the visits. With 100 each, a rate is
 *   known to about ±20%, so only a lift of roughly a third can show; with fewer, a "winner" is mostly noise.
 *   At 2% that is 5,000 visitors per arm; at 10%, 1,000.
 * - 1,000 visitors per arm: the floor for a page that converts above 10%, so a burst of a few keen visitors
 *   cannot decide alone.
 * - 14 days: two whole weeks, so every weekday and two weekends (enquiries differ) fall in every arm, and a
 *   novelty or a one-off campaign fades.
 * - 95% chance to beat the control names the variant; 5% or less for every variant names the control.
 */
export type StoppingRule = {
  minVisitors: number;
  minLeads: number;
  minDays: number;
  chance: number;
};

export const DEFAULT_STOPPING_RULE: StoppingRule = {
  minVisitors: 1000,
  minLeads: 100,
  minDays: 14,
  chance: 0.95,
};

/** One arm as the verdict needs it: `variant` is its id (e.g. "b"), `label` what the staff read (e.g. "B"). */
export type ArmCounts = Arm & { variant: string; label: string; share: number };

export type Shortfall = { variant: string; label: string; visitors: number; leads: number };

export type Verdict =
  | { decision: 'check-split'; pValue: number; sentence: string }
  | { decision: 'keep-running'; days: number; arms: Shortfall[]; sentence: string }
  | { decision: 'winner'; variant: string; chance: number; sentence: string }
  | { decision: 'control-wins'; variant: string; sentence: string };

const number = new Intl.NumberFormat('es-MX');
const percent = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 0 });
// The rule's own thresholds are shown as set: 95%, 99.9%.
const threshold = new Intl.NumberFormat('es-MX', { style: 'percent', maximumFractionDigits: 1 });
const list = new Intl.ListFormat('es', { type: 'conjunction' });

const count = (n: number, one: string, many: string) =>
  `${number.format(n)} ${n === 1 ? one : many}`;

/** "98%", but never a rounded "100%" or "0%" for what is only very likely. */
function chanceWords(chance: number): string {
  if (chance > 0.99) return 'más de un 99%';
  if (chance < 0.01) return 'menos de un 1%';
  return `un ${percent.format(chance)}`;
}

/**
 * Whether the experiment can stop, in the order a careful analyst reads it: a split that is off voids the rest;
 * then the minimums of the rule; only then the chances. `arms[0]` is the control; `days` is how many days the
 * experiment has run.
 */
export function verdict({
  arms,
  days,
  rule: ruleOverride = {},
}: {
  arms: ArmCounts[];
  days: number;
  rule?: Partial<StoppingRule>;
}): Verdict {
  const [control, ...variants] = arms;
  if (!control || variants.length < 1 || variants.length > 3) {
    throw new RangeError(`verdict: a control and 1 to 3 variants, got ${arms.length} arms`);
  }
  const rule = { ...DEFAULT_STOPPING_RULE, ...ruleOverride };
  const counted = arms.map((arm) => ({ ...arm, ...clean(arm) }));

  const split = sampleRatioMismatch(
    counted.map((arm) => arm.visitors),
    counted.map((arm) => arm.share),
  );
  if (split.mismatch) {
    const seen = list.format(counted.map((arm) => `${arm.label} ${number.format(arm.visitors)}`));
    const shareSum = counted.reduce((sum, arm) => sum + arm.share, 0);
    const meant = list.format(counted.map((arm) => percent.format(arm.share / shareSum)));
    return {
      decision: 'check-split',
      pValue: split.pValue,
      sentence:
        `Las visitas no se reparten como se configuró: ${seen}, para un reparto de ${meant} ` +
        `(p < ${SRM_P_VALUE}). Algo reparte o cuenta mal: no leas el resultado hasta encontrar la causa.`,
    };
  }

  const daysShort = Math.max(0, Math.ceil(rule.minDays - (Number.isFinite(days) ? days : 0)));
  const short = counted
    .map((arm) => ({
      variant: arm.variant,
      label: arm.label,
      visitors: Math.max(0, rule.minVisitors - arm.visitors),
      leads: Math.max(0, rule.minLeads - arm.leads),
    }))
    .filter((arm) => arm.visitors > 0 || arm.leads > 0);
  if (daysShort > 0 || short.length > 0) {
    const parts = short.map((arm) => {
      const what = [
        arm.visitors > 0 ? count(arm.visitors, 'visitante', 'visitantes') : '',
        arm.leads > 0 ? count(arm.leads, 'solicitud', 'solicitudes') : '',
      ].filter(Boolean);
      return `${what.join(' y ')} en ${arm.label}`;
    });
    if (daysShort > 0) parts.push(count(daysShort, 'día', 'días'));
    const amounts = [...short.flatMap((arm) => [arm.visitors, arm.leads]), daysShort].filter(
      (n) => n > 0,
    );
    const verb = amounts.length === 1 && amounts[0] === 1 ? 'falta' : 'faltan';
    return {
      decision: 'keep-running',
      days: daysShort,
      arms: short,
      sentence: `Sigue el experimento: ${verb} ${list.format(parts)}.`,
    };
  }

  const chances = counted
    .slice(1)
    .map((arm) => ({ arm, chance: chanceToBeatControl(control, arm) }));
  const best = chances.reduce((top, next) => (next.chance > top.chance ? next : top));
  if (best.chance >= rule.chance) {
    return {
      decision: 'winner',
      variant: best.arm.variant,
      chance: best.chance,
      sentence:
        `Gana ${best.arm.label}: tiene ${chanceWords(best.chance)} de probabilidad de convertir más que ` +
        `${control.label}. Puedes terminar el experimento y dejar sus textos en la página.`,
    };
  }
  if (chances.every(({ chance }) => chance <= 1 - rule.chance)) {
    return {
      decision: 'control-wins',
      variant: control.variant,
      sentence:
        `Gana ${control.label}, el control: ninguna variante tiene más de un ${threshold.format(1 - rule.chance)} de ` +
        'probabilidad de superarlo. Puedes terminar el experimento y dejar la página como está.',
    };
  }
  return {
    decision: 'keep-running',
    days: 0,
    arms: [],
    sentence:
      `Sigue el experimento: ya hay datos suficientes, pero ninguna variante se distingue de ${control.label} ` +
      `con un ${threshold.format(rule.chance)} de probabilidad.`,
  };
}
