export interface FoundImport {
  spec: string;
  typeOnly: boolean;
  line: number;
}
export interface Violation {
  file: string;
  line: number;
  message: string;
}
export declare function importsOf(file: string, text: string): FoundImport[];
export declare function violation(from: string, imp: FoundImport, target: string | undefined): string | undefined;
export declare function checkBoundaries(root: string): Violation[];
export declare function pureCoreFolders(root: string): string[];
export declare function checkEngineTsconfig(root: string): Violation[];
