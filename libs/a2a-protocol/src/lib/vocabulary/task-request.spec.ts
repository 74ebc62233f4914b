import { findTaskId } from './task-request';

describe('task requests', () => {
  it('finds the task id of `Task ID: <source>:<id>`', () => {
    expect(findTaskId('Task ID: arvo:14368')).toBe('arvo:14368');
    expect(findTaskId('Task ID: sample:1')).toBe('sample:1');
  });

  it('finds a bare id as written, for the receiver to read', () => {
    expect(findTaskId('Task ID: 14368')).toBe('14368');
  });

  it('finds the task line inside a longer text, whatever its case and spacing', () => {
    expect(findTaskId('Please assess this.\ntask id:oss-fuzz:42 thanks')).toBe('oss-fuzz:42');
  });

  it("keeps a sentence's closing punctuation out of the task id", () => {
    expect(findTaskId('Task ID: arvo:14368, please.')).toBe('arvo:14368');
    expect(findTaskId('Assess Task ID: sample:1.')).toBe('sample:1');
  });

  it('reads a malformed task id whole, so that `arvo:` is never taken for the bare id `arvo`', () => {
    expect(findTaskId('Task ID: arvo:')).toBe('arvo:');
    expect(findTaskId('Task ID: arvo:1/2')).toBe('arvo:1/2');
    expect(findTaskId('Task ID: :14368')).toBe(':14368');
  });

  it('finds nothing in a text without a task line', () => {
    expect(findTaskId('execute: cat /tmp/arvo:123')).toBeUndefined();
    expect(findTaskId('Task ID: ')).toBeUndefined();
    expect(findTaskId('Task ID:\nexecute: ls')).toBeUndefined();
  });
});
