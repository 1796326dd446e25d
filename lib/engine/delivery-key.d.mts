export declare const ENGINE_KEY_HEADER: string;
export declare const ENGINE_KEY: unique symbol;
export declare function doorOpen(): boolean;
export declare function fromEngine(req: { headers: Headers }): boolean;
