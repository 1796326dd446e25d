import { act, render, screen } from '@testing-library/react';
import { leaveAfterLead } from '@/lib/browser/confirmed-lead';
import { LOADED_DELAY_MS, ThirdPartyScripts } from './third-party-scripts';

jest.mock('next/navigation', () => ({ usePathname: jest.fn(() => '/') }));
// The tags chunk never arrives: a throwing module factory makes its dynamic import reject.
jest.mock('./third-party-tags', () => {
  throw new Error('ChunkLoadError: Failed to load chunk');
});

const props = {
  gaMeasurementId: 'G-TEST123',
  googleAdsId: 'AW-987654321',
  googleAdsConversionLabel: 'etiqueta',
};

async function settle() {
  for (let tick = 0; tick < 10; tick++) await act(async () => jest.advanceTimersByTime(10));
}

describe('third-party scripts whose chunk fails to load', () => {
  let consoleError: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(() => {
    consoleError.mockRestore();
    jest.useRealTimers();
  });

  it('costs the tags only: the page around them stays', async () => {
    render(
      <main>
        <h1>Impulso Digital</h1>
        <ThirdPartyScripts {...props} />
      </main>,
    );
    act(() => jest.advanceTimersByTime(LOADED_DELAY_MS));
    await settle();
    expect(screen.getByRole('heading', { name: 'Impulso Digital' })).toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(
      'No se pudo cargar una parte de la página (etiquetas de terceros); el resto sigue funcionando.',
      expect.any(String),
    );
  });

  it('lets a confirmed lead leave on time: nothing will send its events, so nothing is awaited', async () => {
    render(<ThirdPartyScripts {...props} />);
    const leave = jest.fn();
    act(() => {
      leaveAfterLead('clave-sin-etiquetas', 2000, leave);
    });
    await settle();
    act(() => jest.advanceTimersByTime(2000));
    expect(leave).toHaveBeenCalledTimes(1);
  });
});
