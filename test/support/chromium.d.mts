export declare const chromiumArgs: string[];
export declare function findChromium(): string | undefined;
