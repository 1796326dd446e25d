import { vitalsEventParams } from './web-vitals';

describe('the Core Web Vitals events', () => {
  it('sends the delta as value, the metric in custom parameters, as a non-interaction, to GA only', () => {
    expect(
      vitalsEventParams(
        { name: 'LCP', value: 1234.56, delta: 1234.56, id: 'v5-1', rating: 'good' },
        'G-ABC123',
      ),
    ).toEqual({
      value: 1235,
      metric_id: 'v5-1',
      metric_value: 1234.56,
      metric_delta: 1234.56,
      metric_rating: 'good',
      non_interaction: true,
      send_to: 'G-ABC123',
    });
  });

  it('multiplies CLS by 1000 so a score like 0.012 survives rounding', () => {
    const params = vitalsEventParams(
      { name: 'CLS', value: 0.0123, delta: 0.0123, id: 'v5-2', rating: 'good' },
      'G-ABC123',
    );
    expect(params.value).toBe(12);
    expect(params.metric_value).toBe(0.0123);
  });

  it('reports a later change as its delta, so the values sum up to the final one', () => {
    const params = vitalsEventParams(
      { name: 'INP', value: 320, delta: 120, id: 'v5-3', rating: 'needs-improvement' },
      'G-ABC123',
    );
    expect(params).toMatchObject({
      value: 120,
      metric_value: 320,
      metric_delta: 120,
      metric_rating: 'needs-improvement',
    });
  });
});

describe('reportWebVitals', () => {
  it('resolves quietly when the web-vitals chunk fails to load, and asks again on the next call', async () => {
    let arrives = false;
    const onLCP = jest.fn();
    jest.resetModules();
    jest.doMock('web-vitals', () => {
      if (!arrives) throw new Error('ChunkLoadError: Failed to load chunk');
      return { onCLS: jest.fn(), onFCP: jest.fn(), onINP: jest.fn(), onLCP, onTTFB: jest.fn() };
    });
    const { reportWebVitals } = await import('./web-vitals');

    await expect(reportWebVitals('G-TEST123')).resolves.toBeUndefined();
    expect(onLCP).not.toHaveBeenCalled();

    arrives = true;
    await reportWebVitals('G-TEST123');
    expect(onLCP).toHaveBeenCalledTimes(1);
    jest.dontMock('web-vitals');
  });
});
