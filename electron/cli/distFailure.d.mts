export interface DistTarget {
  electronVersion: string;
  platform: string;
  arch: string;
}
export declare function explainDistFailure(output: string, target: DistTarget): string;
