/**
 * The one serialization the gateway hashes, sizes and compares blocks by (`[gateway-blocks]`):
 * JSON with object keys sorted by code unit, no whitespace, `undefined` members left out. Two
 * values that differ only in key order serialize alike, so a client that rebuilds an object in
 * another order is not reported as changing the prompt.
 */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const record = value as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of Object.keys(record).sort()) {
    if (record[key] === undefined) continue;
    parts.push(`${JSON.stringify(key)}:${canonicalJson(record[key])}`);
  }
  return `{${parts.join(',')}}`;
}
