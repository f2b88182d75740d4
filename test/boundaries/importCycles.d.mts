export declare function importCycles(root: string, dir: string): string[][];
