import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Carousel } from './carousel';
import { fakeViewport, type Place } from '@/test-support/carousel-viewport';

// The engine's chunk never arrives (a flaky network, or a deployment that
// removed it) until the test lets it: a throwing module factory makes the
// dynamic import reject, as a failed chunk does.
let chunkArrives = false;
/** How many times the chunk was asked for. */
let requests = 0;
jest.mock('./carousel-engine', () => {
  requests += 1;
  if (!chunkArrives) throw new Error('ChunkLoadError: Failed to load chunk');
  return jest.requireActual('./carousel-engine');
});

const slides = Array.from({ length: 6 }, (_, index) => `Cliente ${index + 1}`);

let viewport: ReturnType<typeof fakeViewport>;

const scrollTo = (place: Place) => act(() => viewport.scroll(place));

/** Renders the carousel, and scrolls it near the viewport: its engine is asked for. */
function renderCarousel() {
  render(
    <main>
      <h2>Nuestros clientes</h2>
      <Carousel
        slides={slides.map((alt) => (
          // eslint-disable-next-line @next/next/no-img-element
          <img key={alt} src={`/images/${alt}.svg`} alt={alt} width={240} height={80} />
        ))}
        icons={{ previous: '<', next: '>', pause: '||', play: '>>' }}
        label="Logotipos de clientes"
        fourFrom={700}
      />
    </main>,
  );
  scrollTo('near');
  return screen.getByRole('region', { name: 'Logotipos de clientes' });
}

/** Lets the import and its effects run. */
async function settle() {
  for (let tick = 0; tick < 20; tick++) await act(async () => jest.advanceTimersByTime(50));
}

describe('Carousel whose engine chunk fails to load', () => {
  let consoleError: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    chunkArrives = false;
    window.matchMedia = (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList;
    consoleError = jest.spyOn(console, 'error').mockImplementation(() => {});
    viewport = fakeViewport();
  });

  afterEach(() => {
    viewport.restore();
    consoleError.mockRestore();
    jest.useRealTimers();
  });

  it('stays a row of every logo, marked for native scrolling, with the page around it', async () => {
    const carousel = renderCarousel();
    await settle();

    expect(screen.getByRole('heading', { name: 'Nuestros clientes' })).toBeInTheDocument();
    expect(
      within(carousel)
        .getAllByRole('img')
        .map((img) => img.getAttribute('alt')),
    ).toEqual(slides);
    expect(carousel).not.toHaveAttribute('data-ready');
    expect(carousel).toHaveAttribute('data-engine', 'failed');
    expect(consoleError).toHaveBeenCalledWith(expect.stringMatching(/\(motor del carrusel\)/));
  });

  it('its buttons do nothing, and throw nothing', async () => {
    const carousel = renderCarousel();
    await settle();
    for (const button of within(carousel).getAllByRole('button')) fireEvent.click(button);
    expect(within(carousel).getAllByRole('img')).toHaveLength(6);
  });

  it('does not ask again while it stays where it is, nor when the page is idle, but on the next approach', async () => {
    const carousel = renderCarousel();
    await settle();
    expect(carousel).toHaveAttribute('data-engine', 'failed');
    const asked = requests;

    scrollTo('near');
    await act(async () => jest.advanceTimersByTime(10_000));
    expect(requests).toBe(asked);

    scrollTo('far');
    scrollTo('near');
    await settle();
    expect(requests).toBe(asked + 1);
    expect(carousel).toHaveAttribute('data-engine', 'failed');
  });

  it('tries again when touched, and starts once the chunk arrives', async () => {
    const carousel = renderCarousel();
    await settle();
    expect(carousel).toHaveAttribute('data-engine', 'failed');

    chunkArrives = true;
    fireEvent.pointerEnter(carousel);
    await settle();
    expect(carousel).toHaveAttribute('data-ready', 'true');
    expect(carousel).not.toHaveAttribute('data-engine');
  });
});
