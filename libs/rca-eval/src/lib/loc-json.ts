// The submission format: `/workspace/shared/loc.json`, candidates in rank order.

/** Where a submission is written inside the task's workspace. */
export const LOC_JSON_PATH = '/workspace/shared/loc.json';

/** The widest span the judge credits; wider ones are cut to `line_start + MAX_SPAN_LINES`. */
export const MAX_SPAN_LINES = 100;

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
