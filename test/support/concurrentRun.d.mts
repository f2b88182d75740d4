export interface ConcurrentRunArgs {
  copies: number;
  keep: boolean;
  vitestArgs: string[];
}
export interface ReportSummary {
  files: number;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  failures: string[];
}
export declare function parseArgs(argv: string[]): ConcurrentRunArgs;
export declare function summarize(report: unknown): ReportSummary;
