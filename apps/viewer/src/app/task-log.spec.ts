import { taskLog } from './task-log';

const LOG = [
  '2026-11-23T10:00:01.000Z INFO  green  aaaa1111 [TaskContextService] preparing sample:1',
  '2026-11-23T10:00:02.000Z DEBUG green  bbbb2222 [TaskContextService] $ ls',
  '  | a.c',
  '2026-11-23T10:00:03.000Z WARN  purple aaaa1111 [PurpleExecutor] step 1 failed',
  '  | Error: boom',
  '  |     at step',
  '',
].join('\n');

describe('the task log of one context', () => {
  it("keeps that context's events with their continuation lines", () => {
    expect(taskLog(LOG, 'aaaa1111-2222', false)).toEqual({
      text: [LOG.split('\n')[0], ...LOG.split('\n').slice(3, 6)].join('\n'),
      context: 'aaaa1111',
      lines: 4,
      total_lines: 6,
      cut: false,
    });
  });

  it('shows the whole text when no event carries the context', () => {
    expect(taskLog('plain text\nmore', 'cccc3333', false)).toMatchObject({ text: 'plain text\nmore', lines: 2 });
  });

  it('drops the first line of a log read from its end: it may be half a line', () => {
    expect(taskLog(`1Z INFO  green  aaaa1111 half\n${LOG}`, 'bbbb2222', true)).toMatchObject({ lines: 2, total_lines: 6, cut: true });
  });
});
