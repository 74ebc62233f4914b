// The strict check of `loc.json` against its schema: every problem, in words a model can act on.
import { LOC_JSON_PATH, MAX_SPAN_LINES } from './loc-json';

type JsonObject = Record<string, unknown>;

/**
 * Lists what is wrong with a submission's text (null when the file does not exist); empty when it is valid.
 * Stricter than the judge on purpose: the solver is told to write the canonical shape.
 */
export function validateLocJson(text: string | null, path: string = LOC_JSON_PATH): string[] {
  if (text === null) return [`${path} does not exist; write it before submitting`];
  if (text.trim() === '') return [`${path} is empty`];
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return [`${path} is not valid JSON: ${(error as Error).message}`];
  }
  if (Array.isArray(data)) {
    return ['the top level is a list; wrap it as {"reasoning": "...", "locations": [...]}'];
  }
  if (!isObject(data)) return [`the top level must be a JSON object, not ${describe(data)}`];
  return [...checkReasoning(data), ...checkLocations(data)];
}

/** The problems as one message for the solver, or null when there are none. */
export function formatLocJsonProblems(problems: string[], path: string = LOC_JSON_PATH): string | null {
  if (problems.length === 0) return null;
  return [`${path} is not valid:`, ...problems.map((problem) => `- ${problem}`)].join('\n');
}

function checkReasoning(data: JsonObject): string[] {
  const reasoning = data['reasoning'];
  return reasoning === undefined || typeof reasoning === 'string'
    ? []
    : [`"reasoning" must be a string, not ${describe(reasoning)}`];
}

function checkLocations(data: JsonObject): string[] {
  const locations = data['locations'];
  if (locations === undefined) return ['"locations" is missing; it must be a list of locations, best first'];
  if (!Array.isArray(locations)) return [`"locations" must be a list, not ${describe(locations)}`];
  if (locations.length === 0) return ['"locations" is empty; give at least one location'];
  return locations.flatMap((location: unknown, index) => checkLocation(location, `locations[${index}]`));
}

function checkLocation(location: unknown, at: string): string[] {
  if (!isObject(location)) return [`${at} must be an object, not ${describe(location)}`];
  const problems: string[] = [];
  const file = location['file'];
  if (file === undefined) problems.push(`${at} has no "file"`);
  else if (typeof file !== 'string') problems.push(`${at}.file must be a string, not ${describe(file)}`);
  else if (file.trim() === '') problems.push(`${at}.file is empty`);
  const fn = location['function'];
  if (fn === undefined) problems.push(`${at} has no "function" (use "" if the lines are outside any function)`);
  else if (typeof fn !== 'string') problems.push(`${at}.function must be a string, not ${describe(fn)}`);
  const description = location['description'];
  if (description !== undefined && typeof description !== 'string') {
    problems.push(`${at}.description must be a string, not ${describe(description)}`);
  }
  return [...problems, ...checkLines(location, at)];
}

function checkLines(location: JsonObject, at: string): string[] {
  const start = checkLine(location, 'line_start', at);
  const end = checkLine(location, 'line_end', at);
  const problems = [start, end].filter((check): check is string => typeof check === 'string');
  if (problems.length > 0) {
    const legacy = location['line'] !== undefined || location['old_span'] !== undefined;
    const hint = `${at} uses the old "line"/"old_span" form; give "line_start" and "line_end"`;
    return legacy ? [...problems, hint] : problems;
  }
  const [first, last] = [start as number, end as number];
  if (last < first) return [`${at}.line_end (${last}) is before line_start (${first})`];
  if (last - first + 1 > MAX_SPAN_LINES) {
    return [`${at} spans ${last - first + 1} lines (${first}-${last}); at most ${MAX_SPAN_LINES} are allowed`];
  }
  return [];
}

/** The line number, or the problem with it. */
function checkLine(location: JsonObject, key: 'line_start' | 'line_end', at: string): number | string {
  const value = location[key];
  if (value === undefined) return `${at} has no "${key}"`;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    return `${at}.${key} must be an integer, not ${describe(value)}`;
  }
  if (value < 1) return `${at}.${key} must be 1 or more (lines are numbered from 1), not ${value}`;
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') {
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  }
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
