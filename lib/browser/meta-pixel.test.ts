import { trackEvent } from './analytics';
import { META_PIXEL_SRC, startMetaPixel } from './meta-pixel';

type Stub = { queue: ArrayLike<unknown>[]; callMethod?: (...args: unknown[]) => void };
const queue = () =>
  ((window.fbq as unknown as Stub | undefined)?.queue ?? []).map((entry) => Array.from(entry));
const pixelScripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).filter(
    (script) => script.src === META_PIXEL_SRC,
  );

describe('the Meta Pixel', () => {
  beforeEach(() => {
    delete window.fbq;
    delete window.fbqQueue;
    delete (window as { _fbq?: unknown })._fbq;
    document.querySelectorAll('script').forEach((script) => script.remove());
  });

  it("loads Meta's script once, and queues init then PageView for it", () => {
    startMetaPixel('123456789012345');
    startMetaPixel('123456789012345');
    expect(pixelScripts()).toHaveLength(1);
    expect(pixelScripts()[0]?.async).toBe(true);
    expect(queue()).toEqual([
      ['init', '123456789012345'],
      ['track', 'PageView'],
    ]);
  });

  it('replays after init what was sent before it started: a WhatsApp click is a Contact after the PageView', () => {
    trackEvent('whatsapp');
    startMetaPixel('1');
    expect(queue()).toEqual([
      ['init', '1'],
      ['track', 'PageView'],
      ['track', 'Contact'],
    ]);
    expect(window.fbqQueue).toEqual([]);
  });

  it("hands every later command to Meta's own code once it has loaded", () => {
    startMetaPixel('1');
    const callMethod = jest.fn();
    (window.fbq as unknown as Stub).callMethod = callMethod;
    trackEvent('whatsapp');
    expect(callMethod).toHaveBeenCalledWith('track', 'Contact');
  });
});
