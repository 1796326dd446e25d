import { act, render, waitFor } from '@testing-library/react';
import { leaveAfterLead } from '@/lib/browser/confirmed-lead';
import { META_PIXEL_SRC } from '@/lib/browser/meta-pixel';
import { LOADED_DELAY_MS, ThirdPartyScripts } from './third-party-scripts';

jest.mock('next/navigation', () => ({ usePathname: jest.fn(() => '/') }));
// jsdom has no performance timeline for the web-vitals library to read.
jest.mock('@/lib/browser/web-vitals', () => ({ reportWebVitals: jest.fn(async () => undefined) }));
const { usePathname } = jest.requireMock('next/navigation') as { usePathname: jest.Mock };
const { reportWebVitals } = jest.requireMock('@/lib/browser/web-vitals') as {
  reportWebVitals: jest.Mock;
};

const thirdPartyScripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).map(
    (script) => script.src,
  );
const gtagCommands = () => (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
/** What the Meta Pixel was given, in order (its stub queues it until fbevents.js loads, which never happens here). */
const pixelCommands = () =>
  ((window.fbq as unknown as { queue?: ArrayLike<unknown>[] })?.queue ?? []).map((entry) =>
    Array.from(entry),
  );

describe('third-party scripts and the loaded flag', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    delete window.dataLayer;
    delete window.fbq;
    delete window.fbqQueue;
    document.querySelectorAll('script').forEach((script) => script.remove());
    usePathname.mockReturnValue('/');
    reportWebVitals.mockClear();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  const props = {
    gaMeasurementId: 'G-TEST123',
    googleAdsId: 'AW-987654321',
    chatWidgetSrc: 'https://chat.example.com/widget.js',
  };

  it('adds nothing before 6 seconds', () => {
    render(<ThirdPartyScripts {...props} />);
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS - 1));
    expect(LOADED_DELAY_MS).toBe(6000);
    expect(thirdPartyScripts()).toEqual([]);
    expect(reportWebVitals).not.toHaveBeenCalled();
  });

  it('counts the 6 seconds from the first paint, not from when its script runs (a slow phone hydrates late)', async () => {
    // jsdom keeps no paint timing: the browser's entry, painted 4 s before this script runs.
    const paint = {
      name: 'first-contentful-paint',
      startTime: performance.now() - 4000,
    } as PerformanceEntry;
    const entries = jest.fn((name: string) => (name === paint.name ? [paint] : []));
    Object.defineProperty(performance, 'getEntriesByName', { value: entries, configurable: true });
    // A source of its own: next/script adds each source once per page, and the tests share one.
    render(<ThirdPartyScripts chatWidgetSrc="https://chat.example.com/first-paint.js" />);
    act(() => jest.advanceTimersByTime(1900));
    expect(thirdPartyScripts()).toEqual([]);
    act(() => jest.advanceTimersByTime(200));
    await waitFor(() =>
      expect(thirdPartyScripts()).toContain('https://chat.example.com/first-paint.js'),
    );
    expect(entries).toHaveBeenCalledWith('first-contentful-paint');
    delete (performance as { getEntriesByName?: unknown }).getEntriesByName;
  });

  it('adds analytics, the Ads tag and the chat widget once the flag turns true', async () => {
    render(<ThirdPartyScripts {...props} />);
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS));
    // Their code is imported on demand: wait for it.
    await waitFor(() =>
      expect(thirdPartyScripts()).toEqual(
        expect.arrayContaining([
          'https://www.googletagmanager.com/gtag/js?id=G-TEST123',
          'https://www.googletagmanager.com/gtag/js?id=AW-987654321',
          'https://chat.example.com/widget.js',
        ]),
      ),
    );
    const commands = (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
    expect(commands).toContainEqual(['config', 'AW-987654321']);
    // The vitals are measured with the tags, never before the flag.
    expect(reportWebVitals).toHaveBeenCalledWith('G-TEST123');
  });

  it('measures no vitals without GA', async () => {
    render(<ThirdPartyScripts googleAdsId="AW-333" />);
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS));
    await waitFor(() =>
      expect(thirdPartyScripts()).toContain('https://www.googletagmanager.com/gtag/js?id=AW-333'),
    );
    expect(reportWebVitals).not.toHaveBeenCalled();
  });

  it('leaves out every script whose variable is empty, and with none at all sets no timer', () => {
    const timers = jest.spyOn(window, 'setTimeout');
    render(<ThirdPartyScripts />);
    expect(timers.mock.calls.filter(([, ms]) => ms === LOADED_DELAY_MS)).toEqual([]);
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS * 2));
    expect(thirdPartyScripts()).toEqual([]);
  });

  it('waits for a tab opened in the background to be shown', async () => {
    const visibility = jest.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    // next/script never inserts the same script twice per page: use a fresh address.
    render(<ThirdPartyScripts chatWidgetSrc="https://chat.example.com/other.js" />);
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS * 2));
    expect(thirdPartyScripts()).toEqual([]);

    visibility.mockReturnValue('visible');
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS));
    await waitFor(() => expect(thirdPartyScripts()).toContain('https://chat.example.com/other.js'));
    visibility.mockRestore();
  });

  it('queues the event of a marked link clicked before analytics has loaded', () => {
    render(
      <>
        <a href="https://wa.me/1" data-analytics-event="whatsapp">
          <span>Llama/escribenos</span>
        </a>
        <ThirdPartyScripts {...props} />
      </>,
    );
    act(() => {
      document
        .querySelector('span')
        ?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    });
    const events = (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
    expect(events).toEqual([['event', 'whatsapp', {}]]);
    expect(thirdPartyScripts()).toEqual([]);
  });

  it('loads the tags at once when an enquiry is confirmed, and queues its events after the Ads config', async () => {
    // next/script never inserts the same script twice per page: fresh IDs.
    render(
      <ThirdPartyScripts
        gaMeasurementId="G-LEAD1"
        googleAdsId="AW-111"
        googleAdsConversionLabel="etiqueta"
      />,
    );
    act(() => jest.advanceTimersByTime(1000));
    const leave = jest.fn();
    act(() => {
      leaveAfterLead('clave-lead', 2000, leave);
    });
    await waitFor(() =>
      expect(thirdPartyScripts()).toContain('https://www.googletagmanager.com/gtag/js?id=AW-111'),
    );
    const commands = (window.dataLayer ?? []).map((entry) =>
      Array.from(entry as IArguments).slice(0, 2),
    );
    const conversion = commands.findIndex(
      ([command, name]) => command === 'event' && name === 'conversion',
    );
    expect(conversion).toBeGreaterThan(
      commands.findIndex(([command, id]) => command === 'config' && id === 'AW-111'),
    );
    expect(commands.filter(([, name]) => name === 'conversion')).toHaveLength(1);
    expect(commands.filter(([, name]) => name === 'generate_lead')).toHaveLength(1);
  });

  it('does not load the tags early for a confirmed enquiry when there is nothing to measure', () => {
    render(
      <ThirdPartyScripts googleAdsId="AW-222" chatWidgetSrc="https://chat.example.com/lead.js" />,
    );
    act(() => {
      leaveAfterLead('clave-sin-medicion', 2000, () => {});
    });
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS - 1));
    expect(thirdPartyScripts()).toEqual([]);
  });

  it('adds the tags without the 6 second wait on the default thank-you page', async () => {
    usePathname.mockReturnValue('/gracias');
    render(<ThirdPartyScripts gaMeasurementId="G-GRACIAS1" />);
    act(() => jest.advanceTimersByTime(0));
    await waitFor(() =>
      expect(thirdPartyScripts()).toContain(
        'https://www.googletagmanager.com/gtag/js?id=G-GRACIAS1',
      ),
    );
  });

  it('adds the Meta Pixel with the other tags at 6 s: init, PageView, then a WhatsApp click made before as Contact', async () => {
    render(
      <>
        <a href="https://wa.me/1" data-analytics-event="whatsapp">
          WhatsApp
        </a>
        <ThirdPartyScripts metaPixelId="123456789012345" />
      </>,
    );
    act(() => {
      document
        .querySelector('a')
        ?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    });
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS - 1));
    expect(thirdPartyScripts()).toEqual([]);
    act(() => jest.advanceTimersByTime(1));
    await waitFor(() => expect(thirdPartyScripts()).toEqual([META_PIXEL_SRC]));
    expect(pixelCommands()).toEqual([
      ['init', '123456789012345'],
      ['track', 'PageView'],
      ['track', 'Contact'],
    ]);
  });

  it("loads the pixel at once for a confirmed lead, tracks Lead with the lead's key as eventID, and does not hold the redirect for it", async () => {
    render(
      <ThirdPartyScripts metaPixelId="222" chatWidgetSrc="https://chat.example.com/pixel.js" />,
    );
    act(() => jest.advanceTimersByTime(1000));
    const leave = jest.fn();
    act(() => {
      leaveAfterLead('clave-pixel', 2000, leave, { mail: 'ana@example.mx', phone: '5512345678' });
    });
    await waitFor(() => expect(thirdPartyScripts()).toContain(META_PIXEL_SRC));
    await waitFor(() =>
      expect(pixelCommands()).toContainEqual(['track', 'Lead', {}, { eventID: 'clave-pixel' }]),
    );
    expect(pixelCommands().map((command) => command[1])).toEqual(['222', 'PageView', 'Lead']);
    // Nothing personal reaches Meta from the browser.
    expect(JSON.stringify(pixelCommands())).not.toMatch(/ana@|5512345678/);
    act(() => jest.advanceTimersByTime(2000));
    expect(leave).toHaveBeenCalledTimes(1);
  });

  it("with enhanced conversions, sets the lead's e-mail and phone before its Ads conversion", async () => {
    render(
      <ThirdPartyScripts
        googleAdsId="AW-444"
        googleAdsConversionLabel="etiqueta"
        googleAdsEnhancedConversions
      />,
    );
    act(() => {
      leaveAfterLead('clave-mejorada', 2000, jest.fn(), {
        mail: ' Ana@Example.MX',
        phone: '+52 55 1234 5678',
      });
    });
    await waitFor(() =>
      expect(gtagCommands().some(([, name]) => name === 'conversion')).toBe(true),
    );
    const commands = gtagCommands().map((command) => command.slice(0, 3));
    const userData = commands.findIndex(
      ([command, name]) => command === 'set' && name === 'user_data',
    );
    expect(commands[userData]).toEqual([
      'set',
      'user_data',
      { email: 'ana@example.mx', phone_number: '+525512345678' },
    ]);
    expect(userData).toBeLessThan(
      commands.findIndex(([command, name]) => command === 'event' && name === 'conversion'),
    );
  });
});
