import { TIMED_OUT_RETURNCODE } from '@arvo-rca/sandbox';
import { formatCommandResult, parseCommandResult } from './command-result';

describe('command results', () => {
  it('formats the return code and the output as the original does', () => {
    expect(formatCommandResult({ returncode: 0, output: 'a.c\nb.c' })).toBe('<returncode>0</returncode>\n<output>\na.c\nb.c\n</output>');
  });

  it('appends an error element to a timed-out command', () => {
    expect(formatCommandResult({ returncode: TIMED_OUT_RETURNCODE, output: 'partial', timedOut: 'command timed out after 120 s' })).toBe(
      '<returncode>-1</returncode>\n<output>\npartial\n</output>\n<error>\ncommand timed out after 120 s\n</error>',
    );
  });

  it.each([
    ['plain output', { returncode: 0, output: 'hello' }],
    ['empty output', { returncode: 1, output: '' }],
    ['output ending in a newline', { returncode: 2, output: 'line\n' }],
    ['output that contains the closing tag', { returncode: 0, output: '<output>\n</output>\nmore' }],
    ['a timeout with partial output', { returncode: -1, output: 'x\n</output>\n', timedOut: 'timed out' }],
    ['a multi-line error', { returncode: -1, output: '', timedOut: 'killed\nafter 5 s' }],
  ])('parses back what it formats: %s', (_name, result) => {
    expect(parseCommandResult(formatCommandResult(result))).toEqual(result);
  });

  it('accepts a result without the empty line between the tags of an empty output', () => {
    expect(parseCommandResult('<returncode>0</returncode>\n<output>\n</output>\n')).toEqual({ returncode: 0, output: '' });
  });

  it('refuses texts that are no command result', () => {
    expect(parseCommandResult('Command rejected: empty command')).toBeUndefined();
    expect(parseCommandResult('<returncode>zero</returncode>\n<output>\n\n</output>')).toBeUndefined();
    expect(parseCommandResult('<returncode>0</returncode>\n<output>\nunterminated')).toBeUndefined();
  });
});
