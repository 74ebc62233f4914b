import { bashActions, isRecord, replyThought, type TrajectoryCommand, type TrajectoryMessage, type TrajectoryModelCall } from '@arvo-rca/common';
import type { TrajectoryStep, TrajectoryView } from './viewer-api';
import { ViewerError } from './viewer-error';

// The solver's own layout (`Trajectory`), read leniently: anything may be missing in a foreign file.
type Message = Pick<TrajectoryMessage, 'content'> & { role: string };

/**
 * A trajectory as steps: each model reply is one, with its thought (the reply less its bash block), its
 * command, what the solver was shown next, and that call's tokens and cost. The system prompt is left
 * out; the task as given is kept apart.
 */
export function trajectorySteps(text: string): TrajectoryView {
  const trajectory = parse(text);
  const info = record(trajectory['info']);
  const messages = list(trajectory['messages']).flatMap((value) => {
    const message = record(value);
    return typeof message['role'] === 'string' && typeof message['content'] === 'string' ? [{ role: message['role'], content: message['content'] }] : [];
  });
  const calls = list(info['model_calls']).map((call) => record(call) as Partial<TrajectoryModelCall>);
  const commands = list(info['commands']).map((entry) => record(entry) as Partial<TrajectoryCommand>);
  const firstReply = messages.findIndex((message) => message.role === 'assistant');
  const before = firstReply === -1 ? messages : messages.slice(0, firstReply);
  const steps = stepsOf(firstReply === -1 ? [] : messages.slice(firstReply), calls, commands);
  const last = messages.at(-1);
  const tokens = record(info['tokens']);
  const config = record(info['config']);
  return {
    model: stringOr(record(config['model'])['model_name']),
    exit_status: stringOr(info['exit_status']),
    instance: before.filter((message) => message.role === 'user').at(0)?.content ?? null,
    steps,
    closing: steps.length > 0 && last?.role === 'user' && steps.at(-1)?.output !== last.content ? last.content : null,
    cost: numberOr(record(info['model_stats'])['instance_cost']),
    tokens: typeof tokens['input'] === 'number' && typeof tokens['output'] === 'number' ? { input: tokens['input'], output: tokens['output'] } : null,
  };
}

function stepsOf(messages: Message[], calls: Partial<TrajectoryModelCall>[], commands: Partial<TrajectoryCommand>[]): TrajectoryStep[] {
  const steps: TrajectoryStep[] = [];
  messages.forEach((message, position) => {
    if (message.role !== 'assistant') return;
    const index = steps.length + 1;
    const actions = bashActions(message.content);
    const next = messages[position + 1];
    const call = calls[index - 1];
    const ran = commands.find((entry) => entry.step === index && entry.by !== 'agent');
    steps.push({
      index,
      thought: replyThought(message.content),
      command: actions.length === 1 ? actions[0] : null,
      output: next && next.role !== 'assistant' ? next.content : null,
      returncode: actions.length === 1 && typeof ran?.returncode === 'number' ? ran.returncode : null,
      tokens:
        call && [call.input, call.output, call.cache_read, call.cache_write].every((n) => typeof n === 'number')
          ? { input: call.input ?? 0, output: call.output ?? 0, cache_read: call.cache_read ?? 0, cache_write: call.cache_write ?? 0 }
          : null,
      cost: numberOr(call?.cost),
    });
  });
  return steps;
}

function parse(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (isRecord(value)) return value;
  } catch (error) {
    throw new ViewerError('UNREADABLE', `the trajectory is not whole JSON (${(error as Error).message})`);
  }
  throw new ViewerError('UNREADABLE', 'the trajectory is not a JSON object');
}

function record(value: unknown): Record<string, unknown> {
  return isRecord(value) ? value : {};
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringOr(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function numberOr(value: unknown): number | null {
  return typeof value === 'number' ? value : null;
}
