import { isTaskId, parseTaskRef } from './task-ref';

const SOURCES = ['arvo', 'sample'];

describe('parseTaskRef', () => {
  it('reads <source>:<id> into a validated reference', () => {
    expect(parseTaskRef('arvo:14368', SOURCES, 'arvo')).toEqual({ source: 'arvo', id: '14368', taskId: 'arvo:14368' });
    expect(parseTaskRef('sample:1', SOURCES, 'arvo')).toEqual({ source: 'sample', id: '1', taskId: 'sample:1' });
  });

  it('takes a bare id as a task of the default source, as assessment configs list them', () => {
    expect(parseTaskRef('14368', SOURCES, 'arvo').taskId).toBe('arvo:14368');
  });

  it('accepts letters, digits, dashes and underscores in ids, and ignores surrounding blanks', () => {
    expect(parseTaskRef(' arvo:Ab_9-x \n', SOURCES, 'arvo').id).toBe('Ab_9-x');
  });

  it.each(['arvo:../../etc', 'arvo:a b', 'arvo:', 'arvo:1/2', 'arvo:1:2', 'arvo:%2e%2e', 'arvo:.', `arvo:${'9'.repeat(129)}`, ''])(
    'refuses %j as an invalid task id',
    (text) => {
      expect(() => parseTaskRef(text, SOURCES, 'arvo')).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID' }));
    },
  );

  it.each([
    ['arvo:', /the id after "arvo:" is empty/],
    ['', /it is empty/],
    [':14368', /the source before ":" is empty/],
    ['arvo:a b', /only letters, digits/],
    [`arvo:${'9'.repeat(129)}`, /longer than 128 characters/],
  ])('names what is wrong with %j', (text, problem) => {
    expect(() => parseTaskRef(text, SOURCES, 'arvo')).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID', message: expect.stringMatching(problem) }));
  });

  it('refuses an unknown source, naming the sources it knows', () => {
    expect(() => parseTaskRef('nosuch:1', SOURCES, 'arvo')).toThrow(
      expect.objectContaining({ code: 'UNKNOWN_TASK_SOURCE', message: expect.stringMatching(/"nosuch".*known sources: arvo, sample/) }),
    );
  });
});

describe('isTaskId', () => {
  it('holds for a task id in its written form, which may become a file name', () => {
    expect(['arvo:14368', 'sample:1', 'task:ab12cd34'].filter(isTaskId)).toEqual(['arvo:14368', 'sample:1', 'task:ab12cd34']);
  });

  it('fails for a bare id, a path, an empty part or a second colon', () => {
    expect(['14368', 'arvo:../x', ':1', 'arvo:', 'a:b:c', 'a b:1'].filter(isTaskId)).toEqual([]);
  });
});
