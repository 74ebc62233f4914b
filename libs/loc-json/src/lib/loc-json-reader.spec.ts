import { LOC_JSON_SHAPE_TEXT } from './loc-json';
import { readSubmission, validateLocJson, type SubmissionReading } from './loc-json-reader';

function predictionsOf(reading: SubmissionReading) {
  if (reading.kind !== 'read') throw new Error(`expected a readable submission, got: ${reading.reason}`);
  return reading.predictions;
}

describe('readSubmission (the judge’s lenient reading)', () => {
  it('reads the canonical object in rank order', () => {
    const text = JSON.stringify({
      reasoning: 'r',
      locations: [
        { file: 'src/a.c', function: 'f', line_start: 10, line_end: 20, description: 'd' },
        { file: 'src/b.c', function: 'g', line_start: 5, line_end: 5, description: 'd' },
      ],
    });
    expect(predictionsOf(readSubmission(text))).toEqual([
      { file: 'src/a.c', function: 'f', span: { start: 10, end: 20 } },
      { file: 'src/b.c', function: 'g', span: { start: 5, end: 5 } },
    ]);
  });

  it('accepts a bare list of locations', () => {
    const text = JSON.stringify([{ file: 'x.c', function: 'f', line_start: 1, line_end: 2 }]);
    expect(predictionsOf(readSubmission(text))).toEqual([{ file: 'x.c', function: 'f', span: { start: 1, end: 2 } }]);
  });

  it('reads a location with only `line` as a one-line span', () => {
    const text = JSON.stringify({ locations: [{ file: 'x.c', function: 'f', line: 42 }] });
    expect(predictionsOf(readSubmission(text))[0].span).toEqual({ start: 42, end: 42 });
  });

  it('accepts the legacy old_span form', () => {
    const text = JSON.stringify([{ file: 'x.c', old_span: { start: 7, end: 9 }, new_span: { start: 8, end: 10 } }]);
    expect(predictionsOf(readSubmission(text))).toEqual([{ file: 'x.c', function: '', span: { start: 7, end: 9 } }]);
  });

  it('prefers line_start/line_end over old_span and line', () => {
    const text = JSON.stringify([{ file: 'x.c', line_start: 3, line_end: 4, old_span: { start: 7, end: 9 }, line: 1 }]);
    expect(predictionsOf(readSubmission(text))[0].span).toEqual({ start: 3, end: 4 });
  });

  it('cuts a span wider than 100 lines to line_start + 100, and says so', () => {
    const reading = readSubmission(JSON.stringify([{ file: 'x.c', line_start: 10, line_end: 500 }]));
    expect(predictionsOf(reading)[0].span).toEqual({ start: 10, end: 110 });
    expect(reading.kind === 'read' && reading.warnings).toEqual(['locations[0] spans 491 lines, cut to 101']);
  });

  it('keeps a span of exactly line_start + 100 as it is', () => {
    const reading = readSubmission(JSON.stringify([{ file: 'x.c', line_start: 10, line_end: 110 }]));
    expect(predictionsOf(reading)[0].span).toEqual({ start: 10, end: 110 });
  });

  it('reads a swapped range as the range it meant', () => {
    const reading = readSubmission(JSON.stringify([{ file: 'x.c', line_start: 20, line_end: 12 }]));
    expect(predictionsOf(reading)[0].span).toEqual({ start: 12, end: 20 });
  });

  it('coerces digit strings and integral numbers, as the original did', () => {
    const reading = readSubmission('[{"file": "x.c", "line_start": "12", "line_end": 14.0}]');
    expect(predictionsOf(reading)[0].span).toEqual({ start: 12, end: 14 });
  });

  it('keeps the rank of an entry without usable lines, which can still match on file and function', () => {
    const entries = [
      { file: 'a.c', function: 'f', line_start: 'ten' },
      { file: 'b.c', line: 3 },
    ];
    const reading = readSubmission(JSON.stringify(entries));
    expect(predictionsOf(reading)).toEqual([
      { file: 'a.c', function: 'f', span: null },
      { file: 'b.c', function: '', span: { start: 3, end: 3 } },
    ]);
  });

  it('skips entries that are not objects and reads missing or odd fields as empty', () => {
    const reading = readSubmission(JSON.stringify({ locations: ['src/a.c:12', { file: 7, function: null, line: 2 }] }));
    expect(predictionsOf(reading)).toEqual([{ file: '', function: '', span: { start: 2, end: 2 } }]);
    expect(reading.kind === 'read' && reading.warnings).toEqual(['locations[0] skipped: not an object']);
  });

  it('reads an object without locations as no predictions', () => {
    expect(predictionsOf(readSubmission('{"reasoning": "none"}'))).toEqual([]);
  });

  it('finds text that is not JSON unreadable', () => {
    const reading = readSubmission('{"locations": [');
    expect(reading.kind).toBe('unreadable');
    expect(reading.kind === 'unreadable' && reading.reason).toMatch(/^not JSON: /);
  });

  it('finds a scalar or a non-list locations unreadable', () => {
    expect(readSubmission('42')).toEqual({ kind: 'unreadable', reason: 'neither an object nor a list' });
    expect(readSubmission('{"locations": {"file": "x.c"}}')).toEqual({
      kind: 'unreadable',
      reason: 'an object whose "locations" is not a list',
    });
  });
});

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
    expect(validateLocJson(JSON.stringify([good]))).toEqual(['the top level is a list; wrap it as {"reasoning": "...", "locations": [...]}']);
  });

  it('says what is wrong with the top level', () => {
    expect(validateLocJson('"text"')).toEqual(['the top level must be a JSON object, not the string "text"']);
    expect(validateLocJson('{"reasoning": "r"}')).toEqual(['"locations" is missing; it must be a list of locations, best first']);
    expect(validateLocJson('{"reasoning": 1, "locations": {}}')).toEqual([
      '"reasoning" must be a string, not the number 1',
      '"locations" must be a list, not an object',
    ]);
    expect(validateLocJson('{"locations": []}')).toEqual(['"locations" is empty; give at least one location']);
  });

  it('lists every problem of every location, by index', () => {
    const problems = validateLocJson(
      withLocations(good, { function: 'g', line_start: '12', line_end: 14.5 }, 'src/a.c:3', {
        file: '',
        function: 3,
        line_start: 9,
        line_end: 4,
        description: ['x'],
      }),
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

  it('accepts the example the schema text shows', () => {
    const text = LOC_JSON_SHAPE_TEXT;
    const example = text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
    expect(validateLocJson(example)).toEqual([]);
  });
});
