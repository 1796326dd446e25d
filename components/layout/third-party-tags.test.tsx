import { render, waitFor } from '@testing-library/react';
import { trackEvent } from '@/lib/browser/analytics';

// jsdom has no performance timeline for the web-vitals library to read.
jest.mock('@/lib/browser/web-vitals', () => ({ reportWebVitals: jest.fn(async () => undefined) }));

const commands = () =>
  (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments).slice(0, 2));

describe('the tags chunk', () => {
  // As in third-party-scripts.test.tsx: the fake clock also gives jsdom the performance.mark GoogleAnalytics calls.
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it("queues the Consent Mode defaults before anything gtag.js reads: GA's and Ads' config, and a click made before the chunk came", async () => {
    trackEvent('whatsapp');
    // As ThirdPartyScripts loads it: the chunk is evaluated only now.
    const { default: ThirdPartyTags } = await import('./third-party-tags');
    render(<ThirdPartyTags gaMeasurementId="G-ORDEN1" googleAdsId="AW-555" />);
    await waitFor(() => expect(commands()).toContainEqual(['config', 'AW-555']));
    expect(commands()).toContainEqual(['config', 'G-ORDEN1']);
    expect(commands().slice(0, 3)).toEqual([
      ['consent', 'default'],
      ['consent', 'default'],
      ['event', 'whatsapp'],
    ]);
    expect(commands().filter(([command]) => command === 'consent')).toHaveLength(2);
  });
});
