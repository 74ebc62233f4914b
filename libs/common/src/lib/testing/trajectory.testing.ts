// A solver's trajectory as the specs build one: a short run that ended Submitted, with what a spec cares about set.
import { TRAJECTORY_FORMAT, type Trajectory, type TrajectoryMessage } from '../../index';

/** The trajectory of a run of one model call that submitted nothing, with `messages` (one reply when a string) and `info` laid over it. */
export function trajectoryOf(messages: TrajectoryMessage[] | string, info: Partial<Trajectory['info']> = {}): Trajectory {
  return {
    info: {
      exit_status: 'Submitted',
      submission: '',
      model_stats: { instance_cost: 0, api_calls: 1 },
      config: { agent: {}, model: { model_name: 'baseline' }, environment: { task_id: 'task:1', context_id: 'c' } },
      tokens: { input: 0, output: 0, cache_read: 0, cache_write: 0 },
      model_calls: [],
      commands: [],
      ...info,
    },
    messages: typeof messages === 'string' ? [{ role: 'assistant', content: messages }] : messages,
    trajectory_format: TRAJECTORY_FORMAT,
  };
}
