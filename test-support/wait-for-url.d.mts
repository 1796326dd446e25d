export declare function waitForUrl(url: string, options?: { tries?: number; intervalMs?: number }): Promise<void>;
