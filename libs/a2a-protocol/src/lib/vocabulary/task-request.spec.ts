import { findTaskKey, formatTaskKey, formatTaskRequest, parseTaskKey, parseTaskRequest } from './task-request';

describe('task requests', () => {
  it('reads the source and id of `Task ID: <source>:<id>`', () => {
    expect(parseTaskRequest('Task ID: arvo:14368')).toEqual({ source: 'arvo', id: '14368' });
    expect(parseTaskRequest('Task ID: sample:1')).toEqual({ source: 'sample', id: '1' });
  });

  it('takes a bare id as an ARVO task', () => {
    expect(parseTaskRequest('Task ID: 14368')).toEqual({ source: 'arvo', id: '14368' });
  });

  it('finds the task line inside a longer text, whatever its case and spacing', () => {
    expect(parseTaskRequest('Please assess this.\ntask id:oss-fuzz:42 thanks')).toEqual({ source: 'oss-fuzz', id: '42' });
  });

  it('keeps a sentence\'s closing punctuation out of the key', () => {
    expect(parseTaskRequest('Task ID: arvo:14368, please.')).toEqual({ source: 'arvo', id: '14368' });
    expect(parseTaskRequest('Assess Task ID: sample:1.')).toEqual({ source: 'sample', id: '1' });
  });

  it('reads a malformed key whole, so that `arvo:` is never taken for the bare id `arvo`', () => {
    expect(findTaskKey('Task ID: arvo:')).toBe('arvo:');
    expect(findTaskKey('Task ID: arvo:1/2')).toBe('arvo:1/2');
    expect(findTaskKey('Task ID: :14368')).toBe(':14368');
    expect(parseTaskRequest('Task ID: arvo:')).toBeUndefined();
    expect(parseTaskRequest('Task ID: arvo:1/2')).toBeUndefined();
  });

  it('finds nothing in a text without a task line', () => {
    expect(parseTaskRequest('execute: cat /tmp/arvo:123')).toBeUndefined();
    expect(parseTaskRequest('Task ID: ')).toBeUndefined();
    expect(findTaskKey('Task ID:\nexecute: ls')).toBeUndefined();
  });

  it('reads assessment task keys given as strings or numbers', () => {
    expect(parseTaskKey('arvo:10055')).toEqual({ source: 'arvo', id: '10055' });
    expect(parseTaskKey(10055)).toEqual({ source: 'arvo', id: '10055' });
    expect(parseTaskKey(' sample:3 ')).toEqual({ source: 'sample', id: '3' });
    expect(parseTaskKey('arvo:')).toBeUndefined();
    expect(parseTaskKey('two words')).toBeUndefined();
  });

  it('formats what it parses', () => {
    const task = { source: 'sample', id: '5' };
    expect(formatTaskKey(task)).toBe('sample:5');
    expect(formatTaskRequest(task)).toBe('Task ID: sample:5');
    expect(parseTaskRequest(formatTaskRequest(task))).toEqual(task);
  });
});
