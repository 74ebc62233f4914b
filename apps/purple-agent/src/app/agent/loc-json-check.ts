// A structural check of a submitted loc.json, so that the model hears what is wrong while it can
// still fix it. Swappable: anything with this signature will do (the judge library's validator).

/** The problems found in the file's text, each naming the field; none means acceptable. */
export type LocJsonCheck = (text: string) => string[];

const SPAN_LINES = 100;
const SHOWN_PROBLEMS = 10;

export const checkLocJsonShape: LocJsonCheck = (text) => {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return [`it is not valid JSON (${error instanceof Error ? error.message : String(error)})`];
  }
  const locations = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed['locations'] : undefined;
  if (!Array.isArray(locations)) return ['it has no "locations" array'];
  const problems: string[] = [];
  if (isRecord(parsed) && parsed['reasoning'] !== undefined && typeof parsed['reasoning'] !== 'string') problems.push('"reasoning" must be a string');
  locations.forEach((location: unknown, index) => problems.push(...locationProblems(location, `locations[${index}]`)));
  return problems.length > SHOWN_PROBLEMS ? [...problems.slice(0, SHOWN_PROBLEMS), `... and ${problems.length - SHOWN_PROBLEMS} more`] : problems;
};

function locationProblems(location: unknown, at: string): string[] {
  if (!isRecord(location)) return [`${at} must be an object`];
  const problems: string[] = [];
  if (typeof location['file'] !== 'string' || location['file'].trim() === '') problems.push(`${at}.file must be a non-empty string`);
  if (typeof location['function'] !== 'string') problems.push(`${at}.function must be a string`);
  if (location['description'] !== undefined && typeof location['description'] !== 'string') problems.push(`${at}.description must be a string`);
  const start = location['line_start'];
  const end = location['line_end'];
  for (const [key, value] of [['line_start', start], ['line_end', end]] as const) {
    if (!Number.isInteger(value) || (value as number) < 1) problems.push(`${at}.${key} must be a positive integer, not ${JSON.stringify(value)}`);
  }
  if (typeof start === 'number' && typeof end === 'number' && Number.isInteger(start) && Number.isInteger(end)) {
    if (end < start) problems.push(`${at}.line_end (${end}) is before line_start (${start})`);
    else if (end - start + 1 > SPAN_LINES) problems.push(`${at} spans ${end - start + 1} lines; at most ${SPAN_LINES} are allowed`);
  }
  return problems;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
