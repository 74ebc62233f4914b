// A bounded summary of a solver's trajectory, for an exit that travels to a foreign assessor (the `final`
// output of terminal-bench-shell-v1): the whole trajectory can run to megabytes, and the solver's own path
// to it means nothing there. It keeps the trajectory's layout, so that our green agent records it as the
// task's trajectory.json when it is all that came: the run's figures, the step count, and the commands,
// each cut to its first characters, as many of the first and last ones as fit; no messages.
import { TRAJECTORY_FORMAT, type Trajectory, type TrajectoryCommand } from '@arvo-rca/common';

/** The most a summary takes, as JSON text. */
export const MAX_TRAJECTORY_SUMMARY_CHARS = 4096;
/** The first characters of each command that a summary keeps. */
export const SUMMARY_COMMAND_CHARS = 120;
// The other strings a solver fills in; each is cut so that the frame alone stays well inside the bound.
const SUMMARY_TEXT_CHARS = 200;

export function summarizeTrajectory(trajectory: Trajectory): Trajectory {
  const { info } = trajectory;
  const commands = info.commands.map((command): TrajectoryCommand => ({ ...command, command: cut(command.command, SUMMARY_COMMAND_CHARS) }));
  const frame = (kept: TrajectoryCommand[]): Trajectory => ({
    info: {
      exit_status: info.exit_status,
      submission: cut(info.submission, SUMMARY_TEXT_CHARS),
      model_stats: info.model_stats,
      config: {
        agent: {},
        model: { model_name: cut(info.config.model.model_name, SUMMARY_TEXT_CHARS) },
        environment: {
          task_id: cut(info.config.environment.task_id, SUMMARY_TEXT_CHARS),
          context_id: cut(info.config.environment.context_id, SUMMARY_TEXT_CHARS),
        },
      },
      tokens: info.tokens,
      model_calls: [],
      commands: kept,
      summary: {
        steps: info.commands.length,
        model_calls: info.model_calls.length,
        messages: trajectory.messages.length,
        commands_kept: kept.length,
        command_chars: SUMMARY_COMMAND_CHARS,
      },
    },
    messages: [],
    trajectory_format: TRAJECTORY_FORMAT,
  });
  // The frame's size with no command, its counts at their widest; then each command at its own size plus a comma.
  let room = MAX_TRAJECTORY_SUMMARY_CHARS - JSON.stringify(frame([])).length - 2 * String(commands.length).length;
  const head: TrajectoryCommand[] = [];
  const tail: TrajectoryCommand[] = [];
  // From both ends in turn, so that a long run shows how it began and how it ended.
  for (let first = 0, last = commands.length - 1; first <= last;) {
    const fromHead = head.length <= tail.length;
    const next = fromHead ? commands[first] : commands[last];
    const size = JSON.stringify(next).length + 1;
    if (size > room) break;
    room -= size;
    if (fromHead) {
      head.push(next);
      first += 1;
    } else {
      tail.unshift(next);
      last -= 1;
    }
  }
  return frame([...head, ...tail]);
}

function cut(text: string, chars: number): string {
  return text.length > chars ? `${text.slice(0, chars)}…` : text;
}
