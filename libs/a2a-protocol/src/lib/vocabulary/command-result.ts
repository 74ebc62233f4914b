// Green → purple: the result of one command, in the shape the original and mini-swe-agent use:
//   <returncode>N</returncode>\n<output>\n...\n</output>
// On a timeout N is -1 and an <error> element with the reason follows the (partial) output. The output is
// carried as is, so it may itself contain `</output>`: parsing reads up to the last closing tag.

import type { CommandResult } from '@arvo-rca/sandbox';

const HEAD = /^<returncode>(-?\d+)<\/returncode>\n<output>\n/;
const OUTPUT_END = '\n</output>';
const ERROR_START = '\n<error>\n';
const ERROR_END = '\n</error>';

export function formatCommandResult(result: CommandResult): string {
  const text = `<returncode>${result.returncode}</returncode>\n<output>\n${result.output}${OUTPUT_END}`;
  return result.timedOut === undefined ? text : `${text}${ERROR_START}${result.timedOut}${ERROR_END}`;
}

/** The result carried by a green agent's reply, or undefined when the text is not one. */
export function parseCommandResult(text: string): CommandResult | undefined {
  const head = HEAD.exec(text);
  if (!head) return undefined;
  const returncode = Number(head[1]);
  const rest = text.slice(head[0].length).trimEnd();
  const error = splitError(rest);
  if (error) return { returncode, output: error.output, timedOut: error.error };
  if (!rest.endsWith('</output>')) return undefined;
  return { returncode, output: stripOutputEnd(rest) };
}

function splitError(rest: string): { output: string; error: string } | undefined {
  if (!rest.endsWith('</error>')) return undefined;
  const at = rest.lastIndexOf(`</output>${ERROR_START}`);
  if (at < 0) return undefined;
  const output = stripOutputEnd(rest.slice(0, at + '</output>'.length));
  const error = rest.slice(at + `</output>${ERROR_START}`.length, rest.length - '</error>'.length);
  return { output, error: error.endsWith('\n') ? error.slice(0, -1) : error };
}

// The closing tag sits on its own line; an empty output is the empty line between the tags.
function stripOutputEnd(body: string): string {
  if (body.endsWith(OUTPUT_END)) return body.slice(0, -OUTPUT_END.length);
  return body.slice(0, -'</output>'.length);
}
