/** The operator-facing line for a new generation (`[refresh-text]`). */
export function refreshText(from: number, to: number, reason: string): string {
  return `Context refreshed · Generation ${from} → ${to} · Reason: ${reason}`;
}
