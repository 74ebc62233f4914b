// The two readings of `loc.json`, from one reading of its top level: the judge's, lenient as the original
// judge (what can be scored is scored), and the solver's, strict (every problem, in words a model can act on).
import { isRecord, LOC_JSON_PATH } from '@arvo-rca/common';
import { MAX_SPAN_LINES, type LineSpan, type Prediction } from './loc-json';

export type SubmissionReading = { kind: 'read'; predictions: Prediction[]; warnings: string[] } | { kind: 'unreadable'; reason: string };

type JsonObject = Record<string, unknown>;

/** The top level of a submission's text, which both readings start from. */
type TopLevel =
  { kind: 'not-json'; error: string } | { kind: 'list'; entries: unknown[] } | { kind: 'object'; data: JsonObject } | { kind: 'other'; data: unknown };

function readTopLevel(text: string): TopLevel {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { kind: 'not-json', error: (error as Error).message };
  }
  if (Array.isArray(data)) return { kind: 'list', entries: data };
  return isRecord(data) ? { kind: 'object', data } : { kind: 'other', data };
}

/**
 * Reads a submission leniently: an object with `locations` or a bare list; per entry `line_start`/`line_end`,
 * else legacy `old_span: {start, end}`, else `line` (a one-line span); spans wider than MAX_SPAN_LINES are cut
 * to `line_start + MAX_SPAN_LINES`. Entries that are not objects are skipped; an entry without usable lines
 * keeps its rank and can still match on file and function.
 */
export function readSubmission(text: string): SubmissionReading {
  const top = readTopLevel(text);
  if (top.kind === 'not-json') return { kind: 'unreadable', reason: `not JSON: ${top.error}` };
  if (top.kind === 'other') return { kind: 'unreadable', reason: 'neither an object nor a list' };
  const entries = top.kind === 'list' ? top.entries : (top.data['locations'] ?? []);
  if (!Array.isArray(entries)) return { kind: 'unreadable', reason: 'an object whose "locations" is not a list' };
  const predictions: Prediction[] = [];
  const warnings: string[] = [];
  entries.forEach((entry: unknown, index) => {
    if (!isRecord(entry)) {
      warnings.push(`locations[${index}] skipped: not an object`);
      return;
    }
    predictions.push(readPrediction(entry, index, warnings));
  });
  return { kind: 'read', predictions, warnings };
}

/**
 * Lists what is wrong with a submission's text (null when the file does not exist); empty when it is valid.
 * Stricter than the judge on purpose: the solver is told to write the canonical shape.
 */
export function validateLocJson(text: string | null, path: string = LOC_JSON_PATH): string[] {
  if (text === null) return [`${path} does not exist; write it before submitting`];
  if (text.trim() === '') return [`${path} is empty`];
  const top = readTopLevel(text);
  switch (top.kind) {
    case 'not-json':
      return [`${path} is not valid JSON: ${top.error}`];
    case 'list':
      return ['the top level is a list; wrap it as {"reasoning": "...", "locations": [...]}'];
    case 'other':
      return [`the top level must be a JSON object, not ${describe(top.data)}`];
    case 'object':
      return [...checkReasoning(top.data), ...checkLocations(top.data)];
  }
}

// The judge's reading of one entry.

function readPrediction(entry: JsonObject, index: number, warnings: string[]): Prediction {
  const span = readSpan(entry);
  if (!span) warnings.push(`locations[${index}] has no usable line numbers`);
  else if (span.end - span.start > MAX_SPAN_LINES) {
    warnings.push(`locations[${index}] spans ${span.end - span.start + 1} lines, cut to ${MAX_SPAN_LINES + 1}`);
    span.end = span.start + MAX_SPAN_LINES;
  }
  return { file: stringOrEmpty(entry['file']), function: stringOrEmpty(entry['function']), span };
}

function readSpan(entry: JsonObject): LineSpan | null {
  const start = lineNumber(entry['line_start']);
  if (start !== null) return ordered(start, lineNumber(entry['line_end']) ?? start);
  const legacy = entry['old_span'];
  if (isRecord(legacy)) {
    const legacyStart = lineNumber(legacy['start']);
    if (legacyStart !== null) return ordered(legacyStart, lineNumber(legacy['end']) ?? legacyStart);
  }
  const line = lineNumber(entry['line']);
  return line === null ? null : { start: line, end: line };
}

/** A swapped pair is read as the range it obviously meant. */
function ordered(a: number, b: number): LineSpan {
  return a <= b ? { start: a, end: b } : { start: b, end: a };
}

/** Integers, integral floats and digit strings (as the original's pydantic coercion); anything else is no line. */
function lineNumber(value: unknown): number | null {
  if (typeof value === 'number' && Number.isInteger(value)) return value;
  if (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) return Number(value);
  return null;
}

function stringOrEmpty(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

// The solver's check of the canonical shape.

function checkReasoning(data: JsonObject): string[] {
  const reasoning = data['reasoning'];
  return reasoning === undefined || typeof reasoning === 'string' ? [] : [`"reasoning" must be a string, not ${describe(reasoning)}`];
}

function checkLocations(data: JsonObject): string[] {
  const locations = data['locations'];
  if (locations === undefined) return ['"locations" is missing; it must be a list of locations, best first'];
  if (!Array.isArray(locations)) return [`"locations" must be a list, not ${describe(locations)}`];
  if (locations.length === 0) return ['"locations" is empty; give at least one location'];
  return locations.flatMap((location: unknown, index) => checkLocation(location, `locations[${index}]`));
}

function checkLocation(location: unknown, at: string): string[] {
  if (!isRecord(location)) return [`${at} must be an object, not ${describe(location)}`];
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
  if (typeof value !== 'number' || !Number.isInteger(value)) return `${at}.${key} must be an integer, not ${describe(value)}`;
  if (value < 1) return `${at}.${key} must be 1 or more (lines are numbered from 1), not ${value}`;
  return value;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
