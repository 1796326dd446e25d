export declare const ISOLATED_KEYS: string[];
export declare function isolatedEnv(overrides?: Record<string, string>): Record<string, string>;
/** A spawned server's whole environment (NODE_ENV is left to next, which sets it). */
export declare function isolatedProcessEnv(overrides?: Record<string, string>): NodeJS.ProcessEnv;
