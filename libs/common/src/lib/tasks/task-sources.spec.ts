import { isTaskSourceName, TASK_SOURCE_NAMES, taskImage } from './task-sources';

describe('the task sources and their images', () => {
  it('names the image of an ARVO task and of a bundled sample task by its id', () => {
    expect(taskImage('arvo', '14368')).toBe('n132/arvo:14368-vul');
    expect(taskImage('sample', '3')).toBe('arvo-rca-sample:3-vul');
  });

  it('knows arvo and sample, and no other source', () => {
    expect(TASK_SOURCE_NAMES).toEqual(['arvo', 'sample']);
    expect(isTaskSourceName('sample')).toBe(true);
    expect(isTaskSourceName('toString')).toBe(false);
    expect(isTaskSourceName('Sample')).toBe(false);
  });
});
