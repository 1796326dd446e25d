export declare const ENGINE_KEY_HEADER: string;
export declare const ENGINE_KEY: unique symbol;
