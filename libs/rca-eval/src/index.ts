export { LOC_JSON_PATH, MAX_SPAN_LINES, type LocJson, type Location } from './lib/loc-json';
