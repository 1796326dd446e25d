import { act, render, screen } from '@testing-library/react';
import { HeaderScrollWatcher, SCROLL_THRESHOLD } from './header-scroll-watcher';

function scrollTo(y: number) {
  act(() => {
    Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
    window.dispatchEvent(new Event('scroll'));
  });
}

function renderHeader() {
  render(
    <header id="site-header" data-testid="header">
      <HeaderScrollWatcher headerId="site-header" />
    </header>,
  );
  return screen.getByTestId('header');
}

describe('header scroll state', () => {
  afterEach(() => scrollTo(0));

  it('is not scrolled at the top of the page', () => {
    scrollTo(0);
    expect(renderHeader()).toHaveAttribute('data-scrolled', 'false');
  });

  it('stays full height up to exactly 120px of scroll', () => {
    const header = renderHeader();
    scrollTo(SCROLL_THRESHOLD);
    expect(SCROLL_THRESHOLD).toBe(120);
    expect(header).toHaveAttribute('data-scrolled', 'false');
  });

  it('shrinks once the page is scrolled more than 120px, and grows back', () => {
    const header = renderHeader();
    scrollTo(121);
    expect(header).toHaveAttribute('data-scrolled', 'true');
    scrollTo(500);
    expect(header).toHaveAttribute('data-scrolled', 'true');
    scrollTo(40);
    expect(header).toHaveAttribute('data-scrolled', 'false');
  });

  it('starts scrolled when the page loads already scrolled down', () => {
    scrollTo(800);
    expect(renderHeader()).toHaveAttribute('data-scrolled', 'true');
  });

  it('listens passively and stops listening when unmounted', () => {
    const add = jest.spyOn(window, 'addEventListener');
    const remove = jest.spyOn(window, 'removeEventListener');
    const { unmount } = render(<HeaderScrollWatcher headerId="missing" />);
    unmount();
    const header = document.createElement('header');
    header.id = 'site-header-2';
    document.body.append(header);
    const view = render(<HeaderScrollWatcher headerId="site-header-2" />);
    const call = add.mock.calls.find(([type]) => type === 'scroll');
    expect(call?.[2]).toEqual({ passive: true });
    view.unmount();
    expect(remove).toHaveBeenCalledWith('scroll', call?.[1]);
    header.remove();
  });
});
