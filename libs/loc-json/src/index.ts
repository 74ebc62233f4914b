export {
  LOC_JSON_SCHEMA,
  LOC_JSON_SHAPE_TEXT,
  MAX_SPAN_LINES,
  WANTED_LOCATIONS,
  type LineSpan,
  type LocJson,
  type Location,
  type Prediction,
} from './lib/loc-json';
export { readSubmission, validateLocJson, type SubmissionReading } from './lib/loc-json-reader';
