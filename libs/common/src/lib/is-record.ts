/** A JSON object as parsed: not null, not an array. The one check of it for everything read from outside. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
