import { fbq, gtag, trackEvent } from './analytics';

describe('analytics queue', () => {
  beforeEach(() => {
    delete window.dataLayer;
    delete window.fbq;
    delete window.fbqQueue;
  });

  it('queues an event sent before gtag.js has loaded', () => {
    trackEvent('whatsapp');

    expect(window.dataLayer).toHaveLength(1);
    const entry = window.dataLayer?.[0] as IArguments;
    // gtag.js ignores plain arrays: the entry must be a real Arguments object.
    expect(Object.prototype.toString.call(entry)).toBe('[object Arguments]');
    expect(Array.from(entry)).toEqual(['event', 'whatsapp', {}]);
  });

  it('keeps earlier entries, such as the ones the GA snippet queued', () => {
    window.dataLayer = ['existing'];
    trackEvent('formulario', { form: 'contacto' });

    expect(window.dataLayer).toHaveLength(2);
    expect(Array.from(window.dataLayer[1] as IArguments)).toEqual([
      'event',
      'formulario',
      { form: 'contacto' },
    ]);
  });

  it('hands queued events to gtag.js once it replaces dataLayer.push', () => {
    trackEvent('whatsapp');
    const processed: unknown[][] = [];
    // What gtag.js does on load: replay the queue, then process pushes directly.
    const layer = window.dataLayer as unknown[];
    layer.forEach((entry) => processed.push(Array.from(entry as IArguments)));
    layer.push = (...entries: unknown[]) => {
      entries.forEach((entry) => processed.push(Array.from(entry as IArguments)));
      return layer.length;
    };
    gtag('event', 'formulario', {});

    expect(processed).toEqual([
      ['event', 'whatsapp', {}],
      ['event', 'formulario', {}],
    ]);
  });

  it("counts a WhatsApp click as Meta's Contact, queued until the pixel starts; the form's submit is no Meta event", () => {
    trackEvent('formulario');
    expect(window.fbqQueue).toBeUndefined();
    trackEvent('whatsapp');
    expect(window.fbqQueue).toEqual([['track', 'Contact']]);
  });

  it('hands Meta Pixel commands to fbq at once once the pixel has started', () => {
    const started = jest.fn();
    window.fbq = started;
    fbq('track', 'Contact');
    expect(started).toHaveBeenCalledWith('track', 'Contact');
    expect(window.fbqQueue).toBeUndefined();
  });
});
