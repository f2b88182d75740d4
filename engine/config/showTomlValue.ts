const SHOWN_CHARS = 60;

/**
 * A value as it would be written in TOML, clipped to 60 characters, so a message quotes what the
 * person wrote: `"30s"`, `1500`, `1500.0` (a float, since integers are bigints), `inf`, `[1, 2]`,
 * `{ x = 1 }`, `1979-05-27T00:00:00.000Z`.
 */
export function showTomlValue(value: unknown): string {
  let text: string;
  if (typeof value === 'string') text = JSON.stringify(value);
  else if (typeof value === 'bigint') text = value.toString();
  else if (typeof value === 'number') {
    text = Number.isNaN(value) ? 'nan' : !Number.isFinite(value) ? (value > 0 ? 'inf' : '-inf') : Number.isInteger(value) ? value.toFixed(1) : String(value);
  } else if (value instanceof Date) text = value.toISOString();
  else if (Array.isArray(value)) text = `[${value.map(showTomlValue).join(', ')}]`;
  else if (typeof value === 'object' && value !== null) text = `{ ${Object.entries(value).map(([k, v]) => `${k} = ${showTomlValue(v)}`).join(', ')} }`;
  else text = String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
}
