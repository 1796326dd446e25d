import { e164, leadEvents, sendLeadEvents } from './conversion';
import type { ConfirmedLead } from './confirmed-lead';

const KEY = '4f9c2a51-8d1e-4c3b-9a7f-2e6d8b0c1a55';
const ALL = {
  gaMeasurementId: 'G-ABC123',
  googleAdsId: 'AW-123456789',
  googleAdsConversionLabel: 'AbC-D_efG-h12',
};
const CONTACT = { mail: '  Ana.Lopez@Example.MX ', phone: '+52 1 55 1234 5678' };

const queued = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
const lead = (sent: () => void, contact?: ConfirmedLead['contact']): ConfirmedLead => ({
  key: KEY,
  contact,
  sent,
});

describe('the events of a confirmed enquiry', () => {
  beforeEach(() => {
    delete window.dataLayer;
    delete window.fbq;
    delete window.fbqQueue;
  });

  it('is one Ads conversion with the enquiry key as transaction_id, and one GA generate_lead', () => {
    expect(leadEvents(ALL, KEY)).toEqual([
      [
        'event',
        'conversion',
        { send_to: 'AW-123456789/AbC-D_efG-h12', transaction_id: KEY, transport_type: 'beacon' },
      ],
      ['event', 'generate_lead', { send_to: 'G-ABC123', transport_type: 'beacon' }],
    ]);
  });

  it("says which A/B variant the lead's page was, to GA4 and Ads alike", () => {
    expect(leadEvents(ALL, KEY, [{ name: 'titulo-precio', variant: 'b' }])).toEqual([
      [
        'event',
        'conversion',
        {
          send_to: 'AW-123456789/AbC-D_efG-h12',
          transaction_id: KEY,
          transport_type: 'beacon',
          experiment: 'titulo-precio',
          variant: 'b',
        },
      ],
      [
        'event',
        'generate_lead',
        {
          send_to: 'G-ABC123',
          transport_type: 'beacon',
          experiment: 'titulo-precio',
          variant: 'b',
        },
      ],
    ]);
    const sent = jest.fn();
    sendLeadEvents(ALL, {
      key: KEY,
      experiments: [{ name: 'titulo-precio', variant: 'control' }],
      sent,
    });
    expect(queued().map((event) => (event[2] as { variant?: string }).variant)).toEqual([
      'control',
      'control',
    ]);
  });

  it('names every experiment of the page, each list joined by commas in the same order', () => {
    const experiments = [
      { name: 'titulo-precio', variant: 'b' },
      { name: 'orden', variant: 'control' },
    ];
    const [, generateLead] = leadEvents(ALL, KEY, experiments);
    expect(generateLead?.[2]).toMatchObject({
      experiment: 'titulo-precio,orden',
      variant: 'b,control',
    });
  });

  it('sends no conversion without a label, and no generate_lead without GA', () => {
    expect(leadEvents({ googleAdsId: 'AW-123456789' }, KEY)).toEqual([]);
    expect(
      leadEvents({ googleAdsId: 'AW-123456789', googleAdsConversionLabel: 'x' }, KEY).map(
        (event) => event[1],
      ),
    ).toEqual(['conversion']);
    expect(leadEvents({ gaMeasurementId: 'G-ABC123' }, KEY).map((event) => event[1])).toEqual([
      'generate_lead',
    ]);
  });

  it('queues them for gtag and says they were sent only once gtag called back for every one', () => {
    const sent = jest.fn();
    sendLeadEvents(ALL, lead(sent));
    const events = queued();
    expect(events.map((event) => event.slice(0, 2))).toEqual([
      ['event', 'conversion'],
      ['event', 'generate_lead'],
    ]);
    const callbacks = events.map(
      (event) => (event[2] as { event_callback: () => void }).event_callback,
    );
    callbacks[0]?.();
    callbacks[0]?.();
    expect(sent).not.toHaveBeenCalled();
    callbacks[1]?.();
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('with nothing configured queues nothing and is done at once', () => {
    const sent = jest.fn();
    sendLeadEvents({}, lead(sent, CONTACT));
    expect(queued()).toEqual([]);
    expect(window.fbqQueue).toBeUndefined();
    expect(sent).toHaveBeenCalledTimes(1);
  });
});

describe('Google enhanced conversions', () => {
  beforeEach(() => {
    delete window.dataLayer;
  });

  it("sets the visitor's e-mail (trimmed, lower case) and phone (E.164) before the Ads conversion", () => {
    sendLeadEvents({ ...ALL, googleAdsEnhancedConversions: true }, lead(jest.fn(), CONTACT));
    expect(queued().map((entry) => entry.slice(0, 3))).toEqual([
      ['set', 'user_data', { email: 'ana.lopez@example.mx', phone_number: '+525512345678' }],
      ['event', 'conversion', expect.objectContaining({ transaction_id: KEY })],
      ['event', 'generate_lead', expect.any(Object)],
    ]);
  });

  it('leaves out a phone it cannot write in E.164, and keeps the e-mail', () => {
    sendLeadEvents(
      { ...ALL, googleAdsEnhancedConversions: true },
      lead(jest.fn(), { mail: 'ana@example.mx', phone: '123' }),
    );
    expect(queued()[0]).toEqual(['set', 'user_data', { email: 'ana@example.mx' }]);
  });

  it('sends nothing personal when off, without the enquiry, or without an Ads conversion to go with', () => {
    sendLeadEvents(ALL, lead(jest.fn(), CONTACT));
    sendLeadEvents({ ...ALL, googleAdsEnhancedConversions: true }, lead(jest.fn()));
    sendLeadEvents(
      { gaMeasurementId: 'G-ABC123', googleAdsEnhancedConversions: true },
      lead(jest.fn(), CONTACT),
    );
    expect(queued().filter(([command]) => command === 'set')).toEqual([]);
    expect(JSON.stringify(queued())).not.toMatch(/ana\.lopez|55 ?1234/i);
  });

  it.each([
    ['+52 55 1234 5678', '+525512345678'],
    ['+52 1 55 1234 5678', '+525512345678'],
    ['(55) 1234-5678', '+525512345678'],
    ['5512345678', '+525512345678'],
    ['55.1234.5678', '+525512345678'],
    ['+52\u00a055\u202f1234\u20115678', '+525512345678'],
    ['+1 415 555 0123', '+14155550123'],
  ])('writes the phone %s as %s', (typed, written) => {
    expect(e164(typed)).toBe(written);
  });

  it.each(['123', 'abc', '551234567', '+0123456789', ''])('has no E.164 for %p', (typed) => {
    expect(e164(typed)).toBeUndefined();
  });
});

describe('the Meta Pixel Lead', () => {
  beforeEach(() => {
    delete window.dataLayer;
    delete window.fbq;
    delete window.fbqQueue;
  });

  it("is tracked with the enquiry's key as eventID, and counts as sent at once (fbq has no callback)", () => {
    const fbq = jest.fn();
    window.fbq = fbq;
    const sent = jest.fn();
    sendLeadEvents({ metaPixelId: '123456789012345' }, lead(sent, CONTACT));
    expect(fbq.mock.calls).toEqual([['track', 'Lead', {}, { eventID: KEY }]]);
    expect(sent).toHaveBeenCalledTimes(1);
  });

  it('waits for the pixel to start when it has not yet, and carries nothing of the enquiry but its key', () => {
    sendLeadEvents(
      { ...ALL, googleAdsEnhancedConversions: true, metaPixelId: '123456789012345' },
      lead(jest.fn(), CONTACT),
    );
    expect(window.fbqQueue).toEqual([['track', 'Lead', {}, { eventID: KEY }]]);
  });

  it('with gtag as well, is sent once gtag has called back too', () => {
    window.fbq = jest.fn();
    const sent = jest.fn();
    sendLeadEvents(
      { googleAdsId: 'AW-1', googleAdsConversionLabel: 'x', metaPixelId: '1' },
      lead(sent),
    );
    expect(sent).not.toHaveBeenCalled();
    (queued()[0]?.[2] as { event_callback: () => void }).event_callback();
    expect(sent).toHaveBeenCalledTimes(1);
  });
});
