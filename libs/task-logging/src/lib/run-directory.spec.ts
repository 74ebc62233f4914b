import { runDirectoryName, taskLogFileName } from './run-directory';

describe('log file names', () => {
  it('names a run directory after its start time', () => {
    expect(runDirectoryName(new Date(2026, 0, 13, 16, 4, 9))).toBe('log_2026-01-13_16-04-09');
  });

  it('names a task log after the task id', () => {
    expect(taskLogFileName('arvo:14368')).toBe('arvo_14368.log');
    expect(taskLogFileName('sample:1')).toBe('sample_1.log');
  });
});
