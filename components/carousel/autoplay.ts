/** Spec: autoplay every 5000 ms. */
export const AUTOPLAY_DELAY_MS = 5000;
