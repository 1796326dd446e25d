/**
 * @jest-environment node
 */
import fc from 'fast-check';
import {
  type ArmCounts,
  chanceToBeatControl,
  chiSquaredSurvival,
  conversionInterval,
  sampleRatioMismatch,
  verdict,
} from './statistics';

/**
 * P(p_variant > p_control) by brute force, for checking the exact sum: both Beta posteriors on one fine grid,
 * each normalised numerically (no gamma function), the variant's tail summed from the top.
 */
function integratedChance(
  control: { visitors: number; leads: number },
  variant: { visitors: number; leads: number },
) {
  const steps = 20_000;
  const density = ({ visitors, leads }: { visitors: number; leads: number }) => {
    const logs = Array.from({ length: steps }, (_, i) => {
      const x = (i + 0.5) / steps;
      return leads * Math.log(x) + (visitors - leads) * Math.log(1 - x);
    });
    const top = Math.max(...logs);
    const weights = logs.map((l) => Math.exp(l - top));
    const total = weights.reduce((a, b) => a + b, 0);
    return weights.map((w) => w / total);
  };
  const c = density(control);
  const v = density(variant);
  let above = 0;
  let chance = 0;
  for (let i = steps - 1; i >= 0; i--) {
    chance += (c[i] ?? 0) * (above + (v[i] ?? 0) / 2);
    above += v[i] ?? 0;
  }
  return chance;
}

describe('the conversion rate and its 95% interval', () => {
  it('gives the Wilson interval published for 10 leads in 100 visits and for none in 10', () => {
    const ten = conversionInterval({ visitors: 100, leads: 10 });
    expect(ten.rate).toBe(0.1);
    expect(ten.low).toBeCloseTo(0.05523, 5);
    expect(ten.high).toBeCloseTo(0.17437, 5);
    expect(conversionInterval({ visitors: 10, leads: 0 })).toEqual({
      rate: 0,
      low: 0,
      high: expect.closeTo(0.27753, 5),
    });
  });

  it('puts both bounds where the rate is exactly 1.96 standard errors away', () => {
    for (const [visitors, leads] of [
      [50, 1],
      [1000, 37],
      [12, 11],
    ] as const) {
      const { rate, low, high } = conversionInterval({ visitors, leads });
      for (const bound of [low, high]) {
        expect(Math.abs(rate - bound)).toBeCloseTo(
          1.959963984540054 * Math.sqrt((bound * (1 - bound)) / visitors),
          9,
        );
      }
    }
  });

  it('says nothing is known yet with no visitors: a rate of 0 anywhere between 0 and 1', () => {
    expect(conversionInterval({ visitors: 0, leads: 0 })).toEqual({ rate: 0, low: 0, high: 1 });
    expect(conversionInterval({ visitors: 0, leads: 3 })).toEqual({ rate: 0, low: 0, high: 1 });
  });

  it('caps the leads at the visitors when the two counters disagree', () => {
    expect(conversionInterval({ visitors: 40, leads: 45 })).toEqual({
      rate: 1,
      low: expect.closeTo(0.912, 3),
      high: 1,
    });
  });

  it('reads a negative or broken count as none', () => {
    expect(conversionInterval({ visitors: -5, leads: 2 })).toEqual({ rate: 0, low: 0, high: 1 });
    expect(conversionInterval({ visitors: 100, leads: Number.NaN })).toMatchObject({
      rate: 0,
      low: 0,
    });
  });
});

describe('the chance a variant beats the control', () => {
  it('is about 0.98 for 130 leads in 1,000 visits against 100 in 1,000', () => {
    const chance = chanceToBeatControl(
      { visitors: 1000, leads: 100 },
      { visitors: 1000, leads: 130 },
    );
    expect(chance).toBeCloseTo(0.98, 2);
    expect(chance).toBeCloseTo(
      integratedChance({ visitors: 1000, leads: 100 }, { visitors: 1000, leads: 130 }),
      6,
    );
  });

  it('is about 0.02 the other way round', () => {
    expect(
      chanceToBeatControl({ visitors: 1000, leads: 130 }, { visitors: 1000, leads: 100 }),
    ).toBeCloseTo(0.0178, 4);
  });

  it('is a half when both arms have the same counts, from none to a million visitors', () => {
    for (const arm of [
      { visitors: 0, leads: 0 },
      { visitors: 1000, leads: 0 },
      { visitors: 1000, leads: 1000 },
      { visitors: 1000, leads: 50 },
      { visitors: 1_000_000, leads: 30_000 },
      { visitors: 1_000_000, leads: 500_000 },
    ]) {
      expect(chanceToBeatControl(arm, arm)).toBeCloseTo(0.5, 6);
    }
  });

  it('matches a hand calculation: a uniform control against one lead in one visit is 2/3', () => {
    expect(chanceToBeatControl({ visitors: 0, leads: 0 }, { visitors: 1, leads: 1 })).toBeCloseTo(
      2 / 3,
      12,
    );
  });

  it('matches a brute-force integration of the posteriors at small and lopsided counts', () => {
    const cases = [
      [
        { visitors: 200, leads: 0 },
        { visitors: 200, leads: 4 },
      ],
      [
        { visitors: 30, leads: 2 },
        { visitors: 500, leads: 40 },
      ],
      [
        { visitors: 2500, leads: 60 },
        { visitors: 2400, leads: 49 },
      ],
      [
        { visitors: 80, leads: 75 },
        { visitors: 90, leads: 88 },
      ],
    ] as const;
    for (const [control, variant] of cases) {
      expect(chanceToBeatControl(control, variant)).toBeCloseTo(
        integratedChance(control, variant),
        5,
      );
    }
  });

  it('stays a finite probability at a million visitors, where the posteriors are normal', () => {
    // 1,000 more leads on 500,000: z = 0.001 / √(2 · 0.25 / 10⁶) = √2, Φ(√2) = 0.92135.
    const control = { visitors: 1_000_000, leads: 500_000 };
    expect(chanceToBeatControl(control, { visitors: 1_000_000, leads: 501_000 })).toBeCloseTo(
      0.92135,
      4,
    );
    expect(
      chanceToBeatControl({ visitors: 1_000_000, leads: 0 }, { visitors: 1_000_000, leads: 40 }),
    ).toBeCloseTo(1, 10);
  });

  it('gives the same answer either side of the switch to the normal limit for very long experiments', () => {
    // The first sums 249,999 terms exactly; the second has 250,001 in every arm and takes the normal limit.
    const exact = chanceToBeatControl(
      { visitors: 1e6, leads: 249_998 },
      { visitors: 1e6, leads: 250_998 },
    );
    const normal = chanceToBeatControl(
      { visitors: 1e6, leads: 250_000 },
      { visitors: 1e6, leads: 251_000 },
    );
    expect(exact).toBeCloseTo(0.94865, 5);
    expect(normal).toBeCloseTo(exact, 5);
  });

  it('treats leads above the visitors as every visitor converting', () => {
    const control = { visitors: 100, leads: 10 };
    expect(chanceToBeatControl(control, { visitors: 20, leads: 25 })).toBe(
      chanceToBeatControl(control, { visitors: 20, leads: 20 }),
    );
  });

  it('is the complement with the arms swapped, and grows with the variant’s leads', () => {
    const arm = fc
      .record({
        visitors: fc.integer({ min: 0, max: 5000 }),
        rate: fc.double({ min: 0, max: 1, noNaN: true }),
      })
      .map(({ visitors, rate }) => ({ visitors, leads: Math.round(visitors * rate) }));
    fc.assert(
      fc.property(arm, arm, (a, b) => {
        const forward = chanceToBeatControl(a, b);
        expect(forward).toBeGreaterThanOrEqual(0);
        expect(forward).toBeLessThanOrEqual(1);
        expect(forward + chanceToBeatControl(b, a)).toBeCloseTo(1, 8);
        if (b.leads < b.visitors) {
          expect(chanceToBeatControl(a, { ...b, leads: b.leads + 1 })).toBeGreaterThan(
            forward - 1e-12,
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('the chi-squared tail', () => {
  it('gives the textbook critical values', () => {
    expect(chiSquaredSurvival(3.841, 1)).toBeCloseTo(0.05, 4);
    expect(chiSquaredSurvival(3.841458820694124, 1)).toBeCloseTo(0.05, 12);
    expect(chiSquaredSurvival(10.828, 1)).toBeCloseTo(0.001, 6);
    expect(chiSquaredSurvival(5.991464547107979, 2)).toBeCloseTo(0.05, 12);
    expect(chiSquaredSurvival(7.815, 3)).toBeCloseTo(0.05, 4);
    expect(chiSquaredSurvival(16.266236196238129, 3)).toBeCloseTo(0.001, 12);
  });

  it('is e^(−x/2) with two degrees of freedom, across the series and the continued fraction', () => {
    for (const x of [0.01, 0.5, 1.9, 2, 2.1, 7, 30, 200]) {
      expect(chiSquaredSurvival(x, 2) / Math.exp(-x / 2)).toBeCloseTo(1, 10);
    }
  });

  it('is 1 at 0 and a tiny positive number far out, never NaN', () => {
    expect(chiSquaredSurvival(0, 1)).toBe(1);
    expect(chiSquaredSurvival(100, 1)).toBeCloseTo(1.52397e-23, 27);
    expect(chiSquaredSurvival(5000, 3)).toBeGreaterThanOrEqual(0);
  });
});

describe('the sample-ratio-mismatch warning', () => {
  it('flags 1,000 visitors against 1,200 on a 50/50 split', () => {
    const split = sampleRatioMismatch([1000, 1200], [50, 50]);
    expect(split.chiSquared).toBeCloseTo(18.18, 2);
    expect(split.pValue).toBeLessThan(0.001);
    expect(split.mismatch).toBe(true);
  });

  it('lets 1,000 against 1,020 pass as chance', () => {
    const split = sampleRatioMismatch([1000, 1020], [0.5, 0.5]);
    expect(split.pValue).toBeCloseTo(0.656, 3);
    expect(split.mismatch).toBe(false);
  });

  it('flags only below p = 0.001, since the page is looked at every day', () => {
    expect(sampleRatioMismatch([1000, 1100], [1, 1])).toMatchObject({
      pValue: expect.closeTo(0.029, 3),
      mismatch: false,
    });
    expect(sampleRatioMismatch([1000, 1150], [1, 1])).toMatchObject({
      pValue: expect.closeTo(0.0012, 4),
      mismatch: false,
    });
    expect(sampleRatioMismatch([1000, 1160], [1, 1])).toMatchObject({
      pValue: expect.closeTo(0.0006, 4),
      mismatch: true,
    });
  });

  it('reads shares as a ratio, whether they sum to 1 or to 100', () => {
    expect(sampleRatioMismatch([700, 300, 1010], [0.35, 0.15, 0.5])).toEqual(
      sampleRatioMismatch([700, 300, 1010], [35, 15, 50]),
    );
    expect(sampleRatioMismatch([2100, 900], [70, 30]).mismatch).toBe(false);
    expect(sampleRatioMismatch([1500, 1500], [70, 30]).mismatch).toBe(true);
  });

  it('tests four arms with three degrees of freedom', () => {
    // χ² = (60² + 60² + 0 + 0) / 1000 = 7.2; with 3 degrees of freedom p ≈ 0.0658.
    const split = sampleRatioMismatch([1060, 940, 1000, 1000], [1, 1, 1, 1]);
    expect(split.chiSquared).toBeCloseTo(7.2, 10);
    expect(split.pValue).toBeCloseTo(chiSquaredSurvival(7.2, 3), 12);
    expect(split.pValue).toBeCloseTo(0.0658, 4);
  });

  it('has nothing to say before the first visitor', () => {
    expect(sampleRatioMismatch([0, 0], [50, 50])).toEqual({
      chiSquared: 0,
      pValue: 1,
      mismatch: false,
    });
  });

  it('refuses a split that does not fit the counts', () => {
    expect(() => sampleRatioMismatch([10, 20], [1, 1, 1])).toThrow(RangeError);
    expect(() => sampleRatioMismatch([10, 20], [1, 0])).toThrow(/above 0/);
  });
});

describe('the verdict', () => {
  const arms = (...counts: [visitors: number, leads: number, share?: number][]): ArmCounts[] =>
    counts.map(([visitors, leads, share = 1], i) => ({
      variant: 'abcd'.charAt(i),
      label: 'ABCD'.charAt(i),
      share,
      visitors,
      leads,
    }));

  it('names B the winner at 130 leads in 1,000 against 100 in 1,000 after two weeks', () => {
    expect(verdict({ arms: arms([1000, 100], [1000, 130]), days: 14 })).toEqual({
      decision: 'winner',
      variant: 'b',
      chance: expect.closeTo(0.982, 3),
      sentence:
        'Gana B: tiene un 98% de probabilidad de convertir más que A. ' +
        'Puedes terminar el experimento y dejar sus textos en la página.',
    });
  });

  it('names the control when every variant almost surely converts less', () => {
    const result = verdict({ arms: arms([1000, 140], [1000, 100], [1000, 105]), days: 20 });
    expect(result).toMatchObject({ decision: 'control-wins', variant: 'a' });
    expect(result.sentence).toMatch(
      /^Gana A, el control: ninguna variante tiene más de un 5% de probabilidad/,
    );
  });

  it('says what is missing, per variant, before anyone reads the chances', () => {
    // B would be ahead (0.99), but has 680 visitors of the 1,000 the rule asks for.
    const result = verdict({ arms: arms([1020, 100, 60], [680, 100, 40]), days: 14 });
    expect(result).toEqual({
      decision: 'keep-running',
      days: 0,
      arms: [{ variant: 'b', label: 'B', visitors: 320, leads: 0 }],
      sentence: 'Sigue el experimento: faltan 320 visitantes en B.',
    });
  });

  it('lists visitors, leads and days together, in the singular when one is missing', () => {
    expect(verdict({ arms: arms([1000, 99], [1000, 100]), days: 14 }).sentence).toBe(
      'Sigue el experimento: falta 1 solicitud en A.',
    );
    expect(verdict({ arms: arms([400, 30], [410, 41]), days: 3 }).sentence).toBe(
      'Sigue el experimento: faltan 600 visitantes y 70 solicitudes en A, 590 visitantes y 59 solicitudes en B y 11 días.',
    );
    expect(verdict({ arms: arms([5000, 150], [5000, 200]), days: 13.2 }).sentence).toBe(
      'Sigue el experimento: falta 1 día.',
    );
  });

  it('keeps running when there is enough data but no variant stands apart', () => {
    expect(verdict({ arms: arms([1000, 100], [1000, 110]), days: 30 })).toEqual({
      decision: 'keep-running',
      days: 0,
      arms: [],
      sentence:
        'Sigue el experimento: ya hay datos suficientes, pero ninguna variante se distingue de A con un 95% de probabilidad.',
    });
  });

  it('does not name the control while one variant is still undecided', () => {
    expect(verdict({ arms: arms([1000, 130], [1000, 100], [1000, 125]), days: 20 }).decision).toBe(
      'keep-running',
    );
  });

  it('names the likeliest of several variants that beat the control', () => {
    const result = verdict({
      arms: arms([2000, 200], [2000, 260], [2000, 300], [2000, 150]),
      days: 20,
    });
    expect(result).toMatchObject({ decision: 'winner', variant: 'c' });
    expect(result.sentence).toMatch(/^Gana C: tiene más de un 99% de probabilidad/);
  });

  it('stops reading when the split is off, whatever the counts say', () => {
    const result = verdict({ arms: arms([1000, 100, 50], [1200, 200, 50]), days: 30 });
    expect(result).toEqual({
      decision: 'check-split',
      pValue: expect.any(Number),
      sentence: expect.any(String),
    });
    expect(result.sentence).toBe(
      'Las visitas no se reparten como se configuró: A 1,000 y B 1,200, para un reparto de 50% y 50% (p < 0.001). ' +
        'Algo reparte o cuenta mal: no leas el resultado hasta encontrar la causa.',
    );
  });

  it('follows the rule the experiment set for itself', () => {
    const small = arms([300, 30], [300, 50]);
    expect(verdict({ arms: small, days: 14 }).decision).toBe('keep-running');
    expect(
      verdict({ arms: small, days: 7, rule: { minVisitors: 300, minLeads: 30, minDays: 7 } }),
    ).toMatchObject({
      decision: 'winner',
      variant: 'b',
    });
    expect(
      verdict({
        arms: small,
        days: 7,
        rule: { minVisitors: 300, minLeads: 30, minDays: 7, chance: 0.999 },
      }),
    ).toMatchObject({
      decision: 'keep-running',
      arms: [],
      sentence: expect.stringMatching(/se distingue de A con un 99.9% de probabilidad\.$/),
    });
    const losing = arms([300, 50], [300, 20]);
    expect(
      verdict({
        arms: losing,
        days: 7,
        rule: { minVisitors: 300, minLeads: 20, minDays: 7, chance: 0.999 },
      }),
    ).toMatchObject({
      decision: 'control-wins',
      sentence: expect.stringMatching(/más de un 0.1% de probabilidad/),
    });
  });

  it('needs a control and one to three variants', () => {
    expect(() => verdict({ arms: arms([10, 1]), days: 1 })).toThrow(RangeError);
    expect(() => verdict({ arms: arms([1, 0], [1, 0], [1, 0], [1, 0], [1, 0]), days: 1 })).toThrow(
      RangeError,
    );
  });
});
