/**
 * A lazily imported piece, fetched once and shared by every caller. A fetch
 * that fails (a flaky network, a deployment that removed the chunk) is
 * forgotten, so the next call asks again; `onFail` hears each failure.
 * React.lazy, by contrast, keeps a failure for good.
 */
export function retryableImport<T>(
  load: () => Promise<T>,
  onFail?: (error: unknown) => void,
): () => Promise<T> {
  let pending: Promise<T> | undefined;
  return () => {
    pending ??= load().catch((error: unknown) => {
      pending = undefined;
      onFail?.(error);
      throw error;
    });
    return pending;
  };
}
