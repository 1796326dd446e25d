import { act, render, waitFor } from '@testing-library/react';
import { LOADED_DELAY_MS, ThirdPartyScripts } from './third-party-scripts';

const thirdPartyScripts = () =>
  Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]')).map((script) => script.src);

describe('third-party scripts and the loaded flag', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    delete window.dataLayer;
    document.querySelectorAll('script').forEach((script) => script.remove());
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
  });

  it('leaves out every script whose variable is empty', () => {
    render(<ThirdPartyScripts />);
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
      document.querySelector('span')?.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true }));
    });
    const events = (window.dataLayer ?? []).map((entry) => Array.from(entry as IArguments));
    expect(events).toEqual([['event', 'whatsapp', {}]]);
    expect(thirdPartyScripts()).toEqual([]);
  });
});
