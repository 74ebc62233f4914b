import { formatCommandRejected, formatTaskCompleted, parseAssessorReply, parseCommandRejected, parseTaskCompleted } from './assessor-reply';
import { formatCommandResult } from './command-result';

describe('assessor replies', () => {
  it('formats and parses a refused command', () => {
    expect(formatCommandRejected('empty command')).toBe('Command rejected: empty command');
    expect(parseCommandRejected('Command rejected: unknown context abc')).toBe('unknown context abc');
    expect(parseCommandRejected('<returncode>0</returncode>')).toBeUndefined();
  });

  it('formats the closing summary with the time in seconds to one decimal', () => {
    expect(formatTaskCompleted({ commandsExecuted: 12, failed: 3, timeSeconds: 812.44 })).toBe(
      '[TASK COMPLETED] Commands executed: 12, Failed: 3, Time: 812.4s',
    );
  });

  it('parses the closing summary, with or without decimals', () => {
    expect(parseTaskCompleted('[TASK COMPLETED] Commands executed: 12, Failed: 3, Time: 812.4s')).toEqual({
      commandsExecuted: 12,
      failed: 3,
      timeSeconds: 812.4,
    });
    expect(parseTaskCompleted('[TASK COMPLETED] Commands executed: 0, Failed: 0, Time: 7s')).toEqual({ commandsExecuted: 0, failed: 0, timeSeconds: 7 });
    expect(parseTaskCompleted('[TASK COMPLETED] nothing')).toBeUndefined();
  });

  it('tells the kinds of replies apart', () => {
    expect(parseAssessorReply(formatCommandResult({ returncode: 0, output: 'ok' }))).toEqual({ kind: 'result', result: { returncode: 0, output: 'ok' } });
    expect(parseAssessorReply(formatCommandRejected('no shell metacharacters allowed'))).toEqual({
      kind: 'rejected',
      reason: 'no shell metacharacters allowed',
    });
    expect(parseAssessorReply(formatTaskCompleted({ commandsExecuted: 1, failed: 0, timeSeconds: 2 }))).toEqual({
      kind: 'completed',
      summary: { commandsExecuted: 1, failed: 0, timeSeconds: 2 },
    });
    expect(parseAssessorReply('Here is your task: ...')).toEqual({ kind: 'other', text: 'Here is your task: ...' });
  });
});
