import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { AUTOPLAY_DELAY_MS, Carousel } from './carousel';
import { fakeViewport, type Place } from '@/test-support/carousel-viewport';

const slides = Array.from({ length: 6 }, (_, index) => ({
  img: `/images/logo-${index + 1}.svg`,
  alt: `Cliente ${index + 1}`,
}));

function setReducedMotion(reduce: boolean) {
  window.matchMedia = (query: string) =>
    ({
      matches: reduce && query.includes('prefers-reduced-motion'),
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}

const icons = { previous: '<', next: '>', pause: '||', play: '>>' };

let viewport: ReturnType<typeof fakeViewport>;

const scrollTo = (place: Place) => act(() => viewport.scroll(place));

function setTabHidden(hidden: boolean) {
  act(() => {
    Object.defineProperty(document, 'visibilityState', {
      value: hidden ? 'hidden' : 'visible',
      configurable: true,
    });
    Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
    document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
  });
}

/** The clients' carousel, rendered where the page puts it: nothing fetched or started yet. */
function renderClients() {
  render(
    <Carousel
      slides={slides.map((slide) => (
        // eslint-disable-next-line @next/next/no-img-element
        <img key={slide.img} src={slide.img} alt={slide.alt} width={240} height={80} />
      ))}
      icons={icons}
      label="Logotipos de clientes"
      fourFrom={700}
    />,
  );
}

async function renderCarousel() {
  renderClients();
  const carousel = screen.getByRole('region', { name: 'Logotipos de clientes' });
  // Embla is fetched once the carousel comes near the viewport and
  // initialises in an effect; let it settle.
  scrollTo('on screen');
  await startEngine(carousel);
  return carousel;
}

async function startEngine(carousel: HTMLElement) {
  for (let tick = 0; tick < 20 && !carousel.hasAttribute('data-ready'); tick++) {
    await act(async () => jest.advanceTimersByTime(50));
  }
  expect(carousel).toHaveAttribute('data-ready', 'true');
}

const currentDot = () =>
  screen
    .getAllByRole('button', { name: /^Ir al logotipo/ })
    .findIndex((dot) => dot.getAttribute('aria-current') === 'true');

describe('Carousel', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    setReducedMotion(false);
    viewport = fakeViewport();
  });

  afterEach(() => {
    viewport.restore();
    Reflect.deleteProperty(document, 'visibilityState');
    Reflect.deleteProperty(document, 'hidden');
    jest.useRealTimers();
  });

  it('is an accessible carousel of labelled slides', async () => {
    const carousel = await renderCarousel();
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    const groups = within(carousel).getAllByRole('group');
    expect(groups).toHaveLength(6);
    groups.forEach((group, index) => {
      expect(group).toHaveAttribute('aria-roledescription', 'slide');
      expect(group).toHaveAccessibleName(`${index + 1} de 6`);
    });
    expect(within(carousel).getByRole('img', { name: 'Cliente 3' })).toBeInTheDocument();
  });

  it('has the pause button first, then chevrons and one dot per slide, all real buttons', async () => {
    const carousel = await renderCarousel();
    const buttons = within(carousel).getAllByRole('button');
    expect(buttons.map((button) => button.getAttribute('aria-label'))).toEqual([
      'Pausar el carrusel',
      'Logotipo anterior',
      'Ir al logotipo 1 de 6',
      'Ir al logotipo 2 de 6',
      'Ir al logotipo 3 de 6',
      'Ir al logotipo 4 de 6',
      'Ir al logotipo 5 de 6',
      'Ir al logotipo 6 de 6',
      'Logotipo siguiente',
    ]);
    expect(currentDot()).toBe(0);
  });

  it('steps with the chevrons and jumps with the dots', async () => {
    await renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo siguiente' }));
    expect(currentDot()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo anterior' }));
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo anterior' }));
    expect(currentDot()).toBe(5);
    fireEvent.click(screen.getByRole('button', { name: 'Ir al logotipo 4 de 6' }));
    expect(currentDot()).toBe(3);
  });

  it('advances by itself every 5 seconds', async () => {
    await renderCarousel();
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10));
    expect(currentDot()).toBe(0);
    act(() => jest.advanceTimersByTime(10));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(2);
  });

  it('restarts the 5 second wait when a chevron is clicked', async () => {
    await renderCarousel();
    act(() => jest.advanceTimersByTime(4000));
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo siguiente' }));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(4000));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(1000));
    expect(currentDot()).toBe(2);
  });

  it('stays still while paused and resumes when played again', async () => {
    await renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Pausar el carrusel' }));
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir el carrusel' }));
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('pauses while the mouse is over the slides', async () => {
    const carousel = await renderCarousel();
    const viewport = within(carousel).getAllByRole('group')[0]?.parentElement
      ?.parentElement as HTMLElement;
    fireEvent.pointerEnter(viewport, { pointerType: 'mouse' });
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2));
    expect(currentDot()).toBe(0);
    fireEvent.pointerLeave(viewport, { pointerType: 'mouse' });
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('pauses while keyboard focus is inside, and resumes when it leaves', async () => {
    await renderCarousel();
    const next = screen.getByRole('button', { name: 'Logotipo siguiente' });
    act(() => next.focus());
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2));
    expect(currentDot()).toBe(0);
    act(() => next.blur());
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('announces slide changes politely only while it is not rotating', async () => {
    const carousel = await renderCarousel();
    const track = within(carousel).getAllByRole('group')[0]?.parentElement as HTMLElement;
    expect(track).toHaveAttribute('aria-live', 'off');
    fireEvent.click(screen.getByRole('button', { name: 'Pausar el carrusel' }));
    expect(track).toHaveAttribute('aria-live', 'polite');
  });

  it('never starts by itself for visitors who ask for reduced motion', async () => {
    setReducedMotion(true);
    await renderCarousel();
    expect(screen.getByRole('button', { name: 'Reproducir el carrusel' })).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
  });

  it('does not move while off screen, and steps 5 seconds after it is seen again', async () => {
    await renderCarousel();
    act(() => jest.advanceTimersByTime(3000));
    scrollTo('near');
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 4));
    expect(currentDot()).toBe(0);
    scrollTo('on screen');
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10));
    expect(currentDot()).toBe(0);
    act(() => jest.advanceTimersByTime(10));
    expect(currentDot()).toBe(1);
  });

  it('started near the viewport, waits to be on screen before it plays', async () => {
    renderClients();
    scrollTo('near');
    await startEngine(screen.getByRole('region', { name: 'Logotipos de clientes' }));
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
    scrollTo('on screen');
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('does not move while the tab is hidden, and steps 5 seconds after it is shown again', async () => {
    await renderCarousel();
    act(() => jest.advanceTimersByTime(3000));
    setTabHidden(true);
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 4));
    expect(currentDot()).toBe(0);
    setTabHidden(false);
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10));
    expect(currentDot()).toBe(0);
    act(() => jest.advanceTimersByTime(10));
    expect(currentDot()).toBe(1);
  });

  it('stays still when the tab is shown again if it left the screen meanwhile', async () => {
    await renderCarousel();
    setTabHidden(true);
    scrollTo('near');
    // Embla's autoplay restarts by itself when the tab is shown: the holds must still win.
    setTabHidden(false);
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
  });

  it('shows its slides and controls at once, and fetches Embla only when it comes near the viewport', async () => {
    renderClients();
    const carousel = screen.getByRole('region', { name: 'Logotipos de clientes' });
    expect(within(carousel).getAllByRole('group')).toHaveLength(6);
    // Far below, with the page idle for a long while: nothing is fetched.
    scrollTo('far');
    await act(async () => jest.advanceTimersByTime(10_000));
    expect(carousel).not.toHaveAttribute('data-ready');
    scrollTo('near');
    await startEngine(carousel);
  });

  it('fetches Embla when the visitor points at it, even before it is near', async () => {
    await act(async () => {
      render(
        <Carousel
          slides={slides.map((slide) => (
            // eslint-disable-next-line @next/next/no-img-element
            <img key={slide.img} src={slide.img} alt={slide.alt} width={240} height={80} />
          ))}
          icons={icons}
          label="Logotipos de clientes"
          fourFrom={700}
        />,
      );
    });
    const carousel = screen.getByRole('region', { name: 'Logotipos de clientes' });
    fireEvent.pointerEnter(carousel);
    await startEngine(carousel);
  });
});
