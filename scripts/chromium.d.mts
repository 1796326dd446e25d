export declare const DEBIAN_CHROMIUM: string;
export declare function chromiumPath(): string | undefined;
export declare const CHROMIUM_ARGS: string[];
