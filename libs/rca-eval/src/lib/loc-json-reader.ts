// The judge's lenient reading of `loc.json`, as the original judge read it: what can be scored is scored.
import { MAX_SPAN_LINES, type LineSpan, type Prediction } from './loc-json';

export type SubmissionReading =
  | { kind: 'read'; predictions: Prediction[]; warnings: string[] }
  | { kind: 'unreadable'; reason: string };

type JsonObject = Record<string, unknown>;

/**
 * Reads a submission leniently: an object with `locations` or a bare list; per entry `line_start`/`line_end`,
 * else legacy `old_span: {start, end}`, else `line` (a one-line span); spans wider than MAX_SPAN_LINES are cut
 * to `line_start + MAX_SPAN_LINES`. Entries that are not objects are skipped; an entry without usable lines
 * keeps its rank and can still match on file and function.
 */
export function readSubmission(text: string): SubmissionReading {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { kind: 'unreadable', reason: `not JSON: ${(error as Error).message}` };
  }
  const entries = Array.isArray(data) ? data : isObject(data) ? (data['locations'] ?? []) : undefined;
  if (!Array.isArray(entries)) {
    const what = isObject(data) ? 'an object whose "locations" is not a list' : 'neither an object nor a list';
    return { kind: 'unreadable', reason: what };
  }
  const predictions: Prediction[] = [];
  const warnings: string[] = [];
  entries.forEach((entry: unknown, index) => {
    if (!isObject(entry)) {
      warnings.push(`locations[${index}] skipped: not an object`);
      return;
    }
    predictions.push(readPrediction(entry, index, warnings));
  });
  return { kind: 'read', predictions, warnings };
}

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
  if (isObject(legacy)) {
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

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
