/** Full-page navigation, in its own module so tests can observe it. */
export function navigateTo(url: string): void {
  window.location.assign(url);
}

/** Reloads the page, in this module for the same reason. */
export function reloadPage(): void {
  window.location.reload();
}
