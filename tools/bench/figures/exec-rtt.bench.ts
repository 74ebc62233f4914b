import { formatExecute } from '@arvo-rca/a2a-protocol';
import { expectSuccess, type BenchRig } from '../rigs/bench-rig';
import { interleavedTimes, median, percentile, round } from '../report/bench-stats';
import { cliExec, dockerodeExec } from '../probes/direct-exec';

export interface ExecRttFigures {
  n: number;
  full_ms: number;
  dockerode_ms: number;
  cli_ms: number;
  full_vs_dockerode: number;
  dockerode_vs_cli: number;
  full_p90_ms: number;
  dockerode_p90_ms: number;
  cli_p90_ms: number;
  /** The full path in the reply dialect: the command as the solver's reply, its result as the green's next message. */
  reply_ms: number;
  reply_p90_ms: number;
  reply_vs_callback: number;
}

/**
 * Round trip of `true`, four ways on the same container of one live task, interleaved round by
 * round (the order rotating) so that the machine's noise falls on all of them alike:
 * - full (the callback dialect): the stand-in sends `execute: true` to the green agent over A2A and waits for
 *   the reply (the green agent runs it through its sandbox: bash -lc under timeout, output capped);
 * - reply (the reply dialect, as on AgentBeats): the stand-in answers the green's latest message with
 *   `execute: true` (input-required) and waits for the green's next message, the result;
 * - dockerode: a plain dockerode exec of `true` from this process;
 * - cli: `docker exec <container> true`.
 */
export async function measureExecRtt(rig: BenchRig, n = 200): Promise<ExecRttFigures> {
  const { result: samples } = await rig.withSessions(1, async ([session]) => {
    const container = await rig.containerOf(session.contextId);
    return interleavedTimes(
      {
        full: async () => expectSuccess(await session.send(formatExecute('true')), 'true'),
        reply: async () => expectSuccess(await session.reply(formatExecute('true')), 'true'),
        dockerode: async () => expectZero(await dockerodeExec(container, ['true']), 'dockerode exec'),
        cli: async () => expectZero(await cliExec(container.id, ['true']), 'docker exec'),
      },
      n,
    );
  });
  const full = median(samples.full);
  const reply = median(samples.reply);
  const dockerode = median(samples.dockerode);
  const cli = median(samples.cli);
  return {
    n,
    full_ms: round(full),
    dockerode_ms: round(dockerode),
    cli_ms: round(cli),
    full_vs_dockerode: round(full / dockerode),
    dockerode_vs_cli: round(dockerode / cli),
    full_p90_ms: round(percentile(samples.full, 90)),
    dockerode_p90_ms: round(percentile(samples.dockerode, 90)),
    cli_p90_ms: round(percentile(samples.cli, 90)),
    reply_ms: round(reply),
    reply_p90_ms: round(percentile(samples.reply, 90)),
    reply_vs_callback: round(reply / full),
  };
}

function expectZero(code: number, what: string): void {
  if (code !== 0) throw new Error(`${what} of true exited with ${code}`);
}
