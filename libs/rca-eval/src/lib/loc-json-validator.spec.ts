import { LOC_JSON_SHAPE_TEXT } from './loc-json';
import { formatLocJsonProblems, validateLocJson } from './loc-json-validator';

const good = { file: 'src/a.c', function: 'f', line_start: 3, line_end: 9, description: 'why' };
const withLocations = (...locations: unknown[]): string => JSON.stringify({ reasoning: 'r', locations });

describe('validateLocJson (the strict check the solver runs before submitting)', () => {
  it('finds nothing wrong with a canonical submission', () => {
    expect(validateLocJson(withLocations(good, { ...good, line_start: 1, line_end: 100 }))).toEqual([]);
  });

  it('says the file is missing or empty', () => {
    expect(validateLocJson(null)).toEqual(['/workspace/shared/loc.json does not exist; write it before submitting']);
    expect(validateLocJson('  \n')).toEqual(['/workspace/shared/loc.json is empty']);
  });

  it('says when the text is not JSON, with the parser’s reason', () => {
    const [problem] = validateLocJson('{"locations": [}');
    expect(problem).toMatch(/^\/workspace\/shared\/loc.json is not valid JSON: .+/);
  });

  it('asks for the object around a bare list', () => {
    expect(validateLocJson(JSON.stringify([good]))).toEqual([
      'the top level is a list; wrap it as {"reasoning": "...", "locations": [...]}',
    ]);
  });

  it('says what is wrong with the top level', () => {
    expect(validateLocJson('"text"')).toEqual(['the top level must be a JSON object, not the string "text"']);
    expect(validateLocJson('{"reasoning": "r"}')).toEqual([
      '"locations" is missing; it must be a list of locations, best first',
    ]);
    expect(validateLocJson('{"reasoning": 1, "locations": {}}')).toEqual([
      '"reasoning" must be a string, not the number 1',
      '"locations" must be a list, not an object',
    ]);
    expect(validateLocJson('{"locations": []}')).toEqual(['"locations" is empty; give at least one location']);
  });

  it('lists every problem of every location, by index', () => {
    const problems = validateLocJson(
      withLocations(
        good,
        { function: 'g', line_start: '12', line_end: 14.5 },
        'src/a.c:3',
        { file: '', function: 3, line_start: 9, line_end: 4, description: ['x'] },
      ),
    );
    expect(problems).toEqual([
      'locations[1] has no "file"',
      'locations[1].line_start must be an integer, not the string "12"',
      'locations[1].line_end must be an integer, not the number 14.5',
      'locations[2] must be an object, not the string "src/a.c:3"',
      'locations[3].file is empty',
      'locations[3].function must be a string, not the number 3',
      'locations[3].description must be a string, not a list',
      'locations[3].line_end (4) is before line_start (9)',
    ]);
  });

  it('rejects line 0 and spans over 100 lines', () => {
    expect(validateLocJson(withLocations({ ...good, line_start: 0 }))).toEqual([
      'locations[0].line_start must be 1 or more (lines are numbered from 1), not 0',
    ]);
    expect(validateLocJson(withLocations({ ...good, line_start: 10, line_end: 110 }))).toEqual([
      'locations[0] spans 101 lines (10-110); at most 100 are allowed',
    ]);
  });

  it('points a legacy `line` location to line_start and line_end', () => {
    expect(validateLocJson(withLocations({ file: 'a.c', function: 'f', line: 12 }))).toEqual([
      'locations[0] has no "line_start"',
      'locations[0] has no "line_end"',
      'locations[0] uses the old "line"/"old_span" form; give "line_start" and "line_end"',
    ]);
  });

  it('asks for a function, allowing "" for lines outside any function', () => {
    expect(validateLocJson(withLocations({ ...good, function: '' }))).toEqual([]);
    expect(validateLocJson(withLocations({ file: 'a.c', line_start: 1, line_end: 2 }))).toEqual([
      'locations[0] has no "function" (use "" if the lines are outside any function)',
    ]);
  });

  it('formats the problems as one message, and nothing when there are none', () => {
    expect(formatLocJsonProblems(['a', 'b'])).toBe('/workspace/shared/loc.json is not valid:\n- a\n- b');
    expect(formatLocJsonProblems([])).toBeNull();
  });

  it('accepts the example the schema text shows', () => {
    const text = LOC_JSON_SHAPE_TEXT;
    const example = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
    expect(validateLocJson(example)).toEqual([]);
  });
});
