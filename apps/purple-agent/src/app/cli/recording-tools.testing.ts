// Test-only: the task's tools as a spec's MCP server serves them, answering from what they were asked and
// remembering it.
import type { TaskTools, ToolAnswer } from './task-mcp-server';

export class RecordingTools implements TaskTools {
  readonly commands: string[] = [];
  /** What ran and when answers left, in order. */
  readonly events: string[] = [];
  submitted = 0;

  constructor(
    /** What a command's output shows. */
    private readonly output: (command: string) => string = (command) => `ran: ${command}`,
    private readonly submitAnswer: ToolAnswer = { text: 'submission accepted', isError: false },
  ) {}

  async shell(command: string): Promise<ToolAnswer> {
    this.commands.push(command);
    this.events.push(`shell ${command}`);
    return { text: `<returncode>0</returncode>\n<output>${this.output(command)}</output>`, isError: false };
  }

  async submit(): Promise<ToolAnswer> {
    this.submitted += 1;
    this.events.push('submit');
    return this.submitAnswer;
  }

  answered(): void {
    this.events.push('answered');
  }
}
