/**
 * A stand-in for IntersectionObserver in jsdom (which has none), for the
 * carousel's tests: the page is scrolled so the carousel is far from the
 * viewport, near it (inside the observers' margin but not on screen) or on
 * screen. As in a browser, each observer first reports where its targets are,
 * then again whenever that changes; here both happen when the test scrolls
 * (inside act(), so React sees every update).
 */
export type Place = 'far' | 'near' | 'on screen';

export function fakeViewport() {
  let place: Place = 'far';
  const observers = new Set<FakeIntersectionObserver>();
  const original = window.IntersectionObserver;

  const intersects = (rootMargin: string) =>
    place === 'on screen' || (place === 'near' && !/^(0(px)?\s*)+$/.test(rootMargin));

  class FakeIntersectionObserver implements IntersectionObserver {
    readonly root = null;
    readonly rootMargin: string;
    readonly scrollMargin = '0px';
    readonly thresholds = [0];
    /** What each target last reported; undefined until its first report. */
    private readonly reported = new Map<Element, boolean | undefined>();

    constructor(
      private readonly callback: IntersectionObserverCallback,
      options?: IntersectionObserverInit,
    ) {
      this.rootMargin = options?.rootMargin ?? '0px';
      observers.add(this);
    }

    observe(target: Element) {
      this.reported.set(target, undefined);
    }

    unobserve(target: Element) {
      this.reported.delete(target);
    }

    disconnect() {
      this.reported.clear();
      observers.delete(this);
    }

    takeRecords() {
      return [];
    }

    /** Reports the targets not reported yet, and those whose state changed. */
    report() {
      const isIntersecting = intersects(this.rootMargin);
      const entries = [...this.reported.keys()]
        .filter((target) => this.reported.get(target) !== isIntersecting)
        .map((target) => {
          this.reported.set(target, isIntersecting);
          const rect = target.getBoundingClientRect();
          return {
            target,
            isIntersecting,
            intersectionRatio: isIntersecting ? 1 : 0,
            boundingClientRect: rect,
            intersectionRect: rect,
            rootBounds: null,
            time: Date.now(),
          } as IntersectionObserverEntry;
        });
      if (entries.length > 0) this.callback(entries, this);
    }
  }

  window.IntersectionObserver = FakeIntersectionObserver;

  return {
    /** Scrolls the page (or stays, with the current place): the observers report what changed. Call inside act(). */
    scroll(to: Place) {
      place = to;
      for (const observer of [...observers]) observer.report();
    },
    restore() {
      window.IntersectionObserver = original;
    },
  };
}
