import { runDirectoryName, shortContextId, taskLogFileName } from './run-directory';

describe('log file names', () => {
  it('names a run directory after its start time', () => {
    expect(runDirectoryName(new Date(2026, 0, 13, 16, 4, 9))).toBe('log_2026-01-13_16-04-09');
  });

  it('names a task log after the task id', () => {
    expect(taskLogFileName('arvo:14368')).toBe('arvo_14368.log');
    expect(taskLogFileName('sample:1')).toBe('sample_1.log');
  });

  it('refuses task ids that could leave the run directory or are not <source>:<id>', () => {
    for (const bad of ['arvo:../x', '../arvo:1', 'arvo:1/2', 'arvo', 'arvo:', ':1', 'a:b:c', 'arvo:1\n']) {
      expect(() => taskLogFileName(bad)).toThrow(expect.objectContaining({ code: 'INVALID_TASK_ID' }));
    }
  });

  it('shortens a context id to 8 characters that cannot break a log line', () => {
    expect(shortContextId('3f2a9c1e-7b6d-4c1a-9e2f-0a1b2c3d4e5f')).toBe('3f2a9c1e');
    expect(shortContextId('ab\ncd ef')).toBe('ab_cd_ef');
    expect(shortContextId('')).toBe('?');
  });
});
