// The submission format: `/workspace/shared/loc.json`, candidates in rank order.
import { LOC_JSON_PATH } from '@arvo-rca/common';

/** The widest span the judge credits; wider ones are cut to `line_start + MAX_SPAN_LINES`. */
export const MAX_SPAN_LINES = 100;

/** How many ranked candidates the task asks for. */
export const WANTED_LOCATIONS = 3;

export interface Location {
  file: string;
  function: string;
  line_start: number;
  line_end: number;
  description: string;
}

export interface LocJson {
  reasoning: string;
  locations: Location[];
}

/** An inclusive range of 1-based line numbers. */
export interface LineSpan {
  start: number;
  end: number;
}

/** One candidate as the judge reads it, whatever shape it was written in. */
export interface Prediction {
  file: string;
  function: string;
  /** Null when the entry gave no usable line: it can still match on file and function. */
  span: LineSpan | null;
}

/** The schema of `loc.json` (JSON Schema draft 2020-12), for tools and prompts. */
export const LOC_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'loc.json',
  type: 'object',
  required: ['locations'],
  properties: {
    reasoning: { type: 'string', description: 'how the crash leads to the root cause' },
    locations: {
      type: 'array',
      minItems: 1,
      description: 'candidate root-cause locations, most likely first',
      items: {
        type: 'object',
        required: ['file', 'function', 'line_start', 'line_end'],
        properties: {
          file: { type: 'string', minLength: 1, description: 'path relative to the project root' },
          function: { type: 'string', description: 'the function that contains the lines' },
          line_start: { type: 'integer', minimum: 1 },
          line_end: { type: 'integer', minimum: 1, description: `>= line_start, at most ${MAX_SPAN_LINES} lines` },
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

/** The shape of `loc.json` in words and by example, ready to paste into the task description. */
export const LOC_JSON_SHAPE_TEXT = `Write ${LOC_JSON_PATH} as one JSON object:
{
  "reasoning": "how the crash leads to the root cause (string)",
  "locations": [
    {
      "file": "src/parser.c",
      "function": "parse_header",
      "line_start": 120,
      "line_end": 134,
      "description": "why these lines are the root cause (string)"
    }
  ]
}
- "locations" is a non-empty array ranked most likely first; give ${WANTED_LOCATIONS} candidates.
- "file" is the path relative to the project root (e.g. "src/parser.c", not "/workspace/src-vul/...").
- "function" is the exact name of the function containing the lines.
- "line_start" and "line_end" are integers, 1-based and inclusive, line_start <= line_end,
  at most ${MAX_SPAN_LINES} lines per location, numbered as in the vulnerable source.`;
