// Waits until a server started by a test script answers `url` with 2xx
// (30 s at most, every 200 ms); throws if it never does.
export async function waitForUrl(url, { tries = 150, intervalMs = 200 } = {}) {
  for (let i = 0; i < tries; i++) {
    if (await fetch(url).then((response) => response.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`${url} did not answer`);
}
