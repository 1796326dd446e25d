import { leadEvents, sendLeadEvents } from './conversion';

const KEY = '4f9c2a51-8d1e-4c3b-9a7f-2e6d8b0c1a55';
const ALL = { gaMeasurementId: 'G-ABC123', googleAdsId: 'AW-123456789', googleAdsConversionLabel: 'AbC-D_efG-h12' };

const queued = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));

describe('the events of a confirmed enquiry', () => {
  beforeEach(() => {
    delete window.dataLayer;
  });

  it('is one Ads conversion with the enquiry key as transaction_id, and one GA generate_lead', () => {
    expect(leadEvents(ALL, KEY)).toEqual([
      ['event', 'conversion', { send_to: 'AW-123456789/AbC-D_efG-h12', transaction_id: KEY, transport_type: 'beacon' }],
      ['event', 'generate_lead', { send_to: 'G-ABC123', transport_type: 'beacon' }],
    ]);
  });

  it('sends no conversion without a label, and no generate_lead without GA', () => {
    expect(leadEvents({ googleAdsId: 'AW-123456789' }, KEY)).toEqual([]);
    expect(leadEvents({ googleAdsId: 'AW-123456789', googleAdsConversionLabel: 'x' }, KEY).map((event) => event[1])).toEqual([
      'conversion',
    ]);
    expect(leadEvents({ gaMeasurementId: 'G-ABC123' }, KEY).map((event) => event[1])).toEqual(['generate_lead']);
  });

  it('queues them for gtag and says they were sent only once gtag called back for every one', () => {
    const sent = jest.fn();
    sendLeadEvents(ALL, KEY, sent);
    const events = queued();
    expect(events.map((event) => event.slice(0, 2))).toEqual([
      ['event', 'conversion'],
      ['event', 'generate_lead'],
    ]);
    const callbacks = events.map((event) => (event[2] as { event_callback: () => void }).event_callback);
    callbacks[0]?.();
    callbacks[0]?.();
    expect(sent).not.toHaveBeenCalled();
    callbacks[1]?.();
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('with nothing configured queues nothing and is done at once', () => {
    const sent = jest.fn();
    sendLeadEvents({}, KEY, sent);
    expect(queued()).toEqual([]);
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
