import { dirname } from 'node:path';
import { ERROR_REPORT_PATTERN, LOC_JSON_PATH, SOURCE_TREE, WORKSPACE } from '@arvo-rca/common';
import { MAX_SPAN_LINES, type LocJson } from '@arvo-rca/loc-json';
import {
  bugKind,
  enclosingFunction,
  isRuntimeFrame,
  parseStacks,
  pickCandidates,
  shortFunctionName,
  spanAround,
  treeRelativePath,
  type Candidate,
  type CrashStack,
  type LineSpan,
} from './crash-frames';
import type { ChatMessage, Model, ModelReply } from './model';
import { NO_USAGE } from './usage';

const TREE = `${WORKSPACE}/${SOURCE_TREE}`;
const SUBMIT = 'echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT';

interface Action {
  thought: string;
  command: string;
}

type Handler = (observation: string, messages: readonly ChatMessage[]) => Action;

/**
 * The no-network baseline: a deterministic crash-stack heuristic that plays the agent's loop with
 * real commands. It reads the report, finds the stack's project frames in src-vul, bounds their
 * enclosing functions, writes loc.json and submits. Each instance serves one task.
 */
export class BaselineModel implements Model {
  readonly name: string = 'baseline';
  private next: Handler = (_, messages) => this.readReport(messages);
  private report = '';
  private stacks: CrashStack[] = [];
  private candidates: Candidate[] = [];
  private readonly spans: LineSpan[] = [];

  async query(messages: readonly ChatMessage[]): Promise<ModelReply> {
    const action = this.next(observedOutput(messages.at(-1)?.content ?? ''), messages);
    return { content: `THOUGHT: ${action.thought}\n\n\`\`\`bash\n${action.command}\n\`\`\``, truncated: false, usage: { ...NO_USAGE }, cost: 0 };
  }

  private readReport(messages: readonly ChatMessage[]): Action {
    // `/workspace/<id>_error.txt`, or `/workspace/error.txt` when the assessor hides the task's id.
    const named = messages.map((message) => ERROR_REPORT_PATTERN.exec(message.content)?.[0]).find(Boolean);
    this.next = (output) => this.locateFiles(output);
    return { thought: 'Read the sanitizer report to see which stack crashed and where.', command: `cat ${named ? quote(named) : `${WORKSPACE}/*error.txt`}` };
  }

  private locateFiles(report: string): Action {
    this.report = report;
    this.stacks = parseStacks(report);
    const reported = unique(this.stacks.flatMap((stack) => stack.frames.filter((frame) => !isRuntimeFrame(frame)).map((frame) => frame.file)));
    if (reported.length === 0) return this.writeLocJson();
    const guesses = unique(reported.map(treeRelativePath)).map(quote).join(' ');
    this.next = (output) => this.findFunctions(output, reported);
    return {
      thought: 'The report names files as they were in the build (/src/<project>/...); find each of them in the source tree.',
      command:
        `cd ${TREE} && for f in ${guesses}; do hit=$(find . -type f -path "*/$f" | head -n 1); ` +
        `[ -n "$hit" ] || hit=$(find . -type f -path "*/$(basename "$(dirname "$f")")/$(basename "$f")" | head -n 1); ` +
        `printf '%s\\t%s\\n' "$f" "\${hit#./}"; done`,
    };
  }

  private findFunctions(output: string, reported: readonly string[]): Action {
    const found = new Map(
      output
        .split('\n')
        .map((row) => row.split('\t'))
        .filter((cells) => cells.length === 2 && cells[1].trim() !== '')
        .map(([guess, hit]) => [guess, hit.trim()]),
    );
    const located = new Map<string, string>();
    for (const file of reported) {
      const hit = found.get(treeRelativePath(file));
      if (hit) located.set(file, hit);
    }
    this.candidates = pickCandidates(this.stacks, located);
    return this.candidates.length === 0 ? this.writeLocJson() : this.grepFunction(0);
  }

  private grepFunction(index: number): Action {
    const { frame, treeFile } = this.candidates[index];
    const name = shortFunctionName(frame.func).replace(/[.[\]()*+?{}|^$\\]/g, '\\$&');
    const pattern = `^(\\}|${name}[[:space:]]*\\(|[A-Za-z_].*[^A-Za-z0-9_]${name}[[:space:]]*\\()`;
    this.next = (output) => this.collectFunction(index, output);
    return {
      thought: `Frame #${frame.index} is ${frame.func} at ${treeFile}:${frame.line}; list the definitions and closing braces to bound the function around that line.`,
      command: `grep -n -E ${quote(pattern)} ${quote(`${TREE}/${treeFile}`)}`,
    };
  }

  private collectFunction(index: number, output: string): Action {
    const { frame } = this.candidates[index];
    this.spans[index] = spanAround(frame.line, enclosingFunction(output, shortFunctionName(frame.func), frame.line), MAX_SPAN_LINES);
    return index + 1 < this.candidates.length ? this.grepFunction(index + 1) : this.writeLocJson();
  }

  private writeLocJson(): Action {
    const kind = bugKind(this.report);
    const locJson: LocJson = {
      reasoning:
        `Baseline heuristic for a ${kind}: the top project frames of the sanitizer's crash stack, with the allocation or ` +
        `free site when the report has one. The crash site is not always the root cause; these are the places to start.`,
      locations: this.candidates.map((candidate, index) => ({
        file: candidate.treeFile,
        function: shortFunctionName(candidate.frame.func),
        line_start: this.spans[index].start,
        line_end: this.spans[index].end,
        description: `${kind}: ${candidate.why}, ${candidate.frame.func} at line ${candidate.frame.line}`,
      })),
    };
    this.next = () => this.submit();
    return {
      thought: `Write ${this.candidates.length} ranked candidates to ${LOC_JSON_PATH}.`,
      command: `mkdir -p ${dirname(LOC_JSON_PATH)} && cat > ${LOC_JSON_PATH} <<'LOC_JSON'\n${JSON.stringify(locJson, null, 2)}\nLOC_JSON`,
    };
  }

  private submit(): Action {
    this.next = () => this.submit();
    return { thought: 'loc.json is written; submit.', command: SUBMIT };
  }
}

/** The command output inside an observation (the head and tail when it was cut). */
export function observedOutput(observation: string): string {
  const whole = /<output>\n([\s\S]*)\n<\/output>/.exec(observation)?.[1];
  if (whole !== undefined) return whole;
  const head = /<output_head>\n([\s\S]*?)\n<\/output_head>/.exec(observation)?.[1];
  const tail = /<output_tail>\n([\s\S]*?)\n<\/output_tail>/.exec(observation)?.[1];
  return head === undefined ? observation : `${head}\n${tail ?? ''}`;
}

function quote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function unique<T>(items: readonly T[]): T[] {
  return [...new Set(items)];
}
