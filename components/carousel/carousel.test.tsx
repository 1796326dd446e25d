import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { AUTOPLAY_DELAY_MS, Carousel } from './carousel';

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

function renderCarousel() {
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
  // Embla initialises in an effect; let it settle.
  act(() => jest.advanceTimersByTime(0));
  return screen.getByRole('region', { name: 'Logotipos de clientes' });
}

const currentDot = () =>
  screen.getAllByRole('button', { name: /^Ir al logotipo/ }).findIndex((dot) => dot.getAttribute('aria-current') === 'true');

describe('Carousel', () => {
  beforeEach(() => {
    jest.useFakeTimers();
    setReducedMotion(false);
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('is an accessible carousel of labelled slides', () => {
    const carousel = renderCarousel();
    expect(carousel).toHaveAttribute('aria-roledescription', 'carousel');
    const groups = within(carousel).getAllByRole('group');
    expect(groups).toHaveLength(6);
    groups.forEach((group, index) => {
      expect(group).toHaveAttribute('aria-roledescription', 'slide');
      expect(group).toHaveAccessibleName(`${index + 1} de 6`);
    });
    expect(within(carousel).getByRole('img', { name: 'Cliente 3' })).toBeInTheDocument();
  });

  it('has the pause button first, then chevrons and one dot per slide, all real buttons', () => {
    const carousel = renderCarousel();
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

  it('steps with the chevrons and jumps with the dots', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo siguiente' }));
    expect(currentDot()).toBe(1);
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo anterior' }));
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo anterior' }));
    expect(currentDot()).toBe(5);
    fireEvent.click(screen.getByRole('button', { name: 'Ir al logotipo 4 de 6' }));
    expect(currentDot()).toBe(3);
  });

  it('advances by itself every 5 seconds', () => {
    renderCarousel();
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS - 10));
    expect(currentDot()).toBe(0);
    act(() => jest.advanceTimersByTime(10));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(2);
  });

  it('restarts the 5 second wait when a chevron is clicked', () => {
    renderCarousel();
    act(() => jest.advanceTimersByTime(4000));
    fireEvent.click(screen.getByRole('button', { name: 'Logotipo siguiente' }));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(4000));
    expect(currentDot()).toBe(1);
    act(() => jest.advanceTimersByTime(1000));
    expect(currentDot()).toBe(2);
  });

  it('stays still while paused and resumes when played again', () => {
    renderCarousel();
    fireEvent.click(screen.getByRole('button', { name: 'Pausar el carrusel' }));
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
    fireEvent.click(screen.getByRole('button', { name: 'Reproducir el carrusel' }));
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('pauses while the mouse is over the slides', () => {
    const carousel = renderCarousel();
    const viewport = within(carousel).getAllByRole('group')[0]?.parentElement?.parentElement as HTMLElement;
    fireEvent.pointerEnter(viewport, { pointerType: 'mouse' });
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2));
    expect(currentDot()).toBe(0);
    fireEvent.pointerLeave(viewport, { pointerType: 'mouse' });
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('pauses while keyboard focus is inside, and resumes when it leaves', () => {
    renderCarousel();
    const next = screen.getByRole('button', { name: 'Logotipo siguiente' });
    act(() => next.focus());
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 2));
    expect(currentDot()).toBe(0);
    act(() => next.blur());
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS));
    expect(currentDot()).toBe(1);
  });

  it('announces slide changes politely only while it is not rotating', () => {
    const carousel = renderCarousel();
    const track = within(carousel).getAllByRole('group')[0]?.parentElement as HTMLElement;
    expect(track).toHaveAttribute('aria-live', 'off');
    fireEvent.click(screen.getByRole('button', { name: 'Pausar el carrusel' }));
    expect(track).toHaveAttribute('aria-live', 'polite');
  });

  it('never starts by itself for visitors who ask for reduced motion', () => {
    setReducedMotion(true);
    renderCarousel();
    expect(screen.getByRole('button', { name: 'Reproducir el carrusel' })).toBeInTheDocument();
    act(() => jest.advanceTimersByTime(AUTOPLAY_DELAY_MS * 3));
    expect(currentDot()).toBe(0);
  });
});
