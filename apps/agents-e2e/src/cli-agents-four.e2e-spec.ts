import { existsSync, readdirSync } from 'node:fs';
import { A2aClientFactory } from '@arvo-rca/a2a-protocol';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { environValue, liveInGroup, processes, processesNaming, waitUntil, workingFolder } from '@arvo-rca/common/testing';
import { FakeLlmServer, reply, toolCall } from '@arvo-rca/fake-llm';
import { CliAgentStack, type CliAssessment } from './support/processes/cli-agent-stack';
import { TaskContainers } from './support/engines/task-containers';

// Four samples assessed at once, each solved by the real Claude Code in the purple agent against one scripted
// stand-in of Anthropic's API (a script per task, chosen by its crash function, which the crash report in its
// prompt names: the green agent names tasks to the solver by a masked id). Every task's first
// command waits in its container for a gate the test opens, so all four are mid-run together when one of
// them is canceled at the purple agent.
const TASKS = ['sample:1', 'sample:2', 'sample:3', 'sample:4'];
const CANCELED = 'sample:2';
/** Each scored task's root cause (its samples/<n>/patch.diff hunk), as a CLI agent would write it. */
const ROOT_CAUSES: Record<string, { file: string; function: string; line_start: number; line_end: number }> = {
  'sample:1': { file: 'src/index.c', function: 'index_span', line_start: 64, line_end: 70 },
  'sample:3': { file: 'src/value.c', function: 'ini_unescape', line_start: 109, line_end: 114 },
  'sample:4': { file: 'src/decode.c', function: 'decode_dict', line_start: 158, line_end: 163 },
};
/** A word each task's crash report has and no other's: its crash function (samples/<n>/sample.json). */
const MARKERS: Record<string, string> = {
  'sample:1': 'tlv_cursor_be32',
  'sample:2': 'mimedec_qp_decode',
  'sample:3': 'ini_unescape',
  'sample:4': 'be_dict_add_entry',
};
const GATE = '/tmp/four-at-once-gate';
const WAIT = `until [ -e ${GATE} ]; do sleep 0.2; done; echo through the gate`;

function write(taskId: string): string {
  const answer = JSON.stringify({ reasoning: 'scripted', locations: [{ ...ROOT_CAUSES[taskId], description: 'the fix' }] });
  return `cat > /workspace/shared/loc.json <<'EOF'\n${answer}\nEOF`;
}

/** A task's CLI as /proc shows it: its process group (one of its own), its HOME and its working folder. */
interface CliGroup {
  pgid: number;
  home: string;
  workdir: string;
}

describeWithDocker('four tasks at once through both agents, Claude Code solving each, one canceled mid-run', () => {
  const containers = new TaskContainers();
  let stack: CliAgentStack<FakeLlmServer>;
  let greenPid: number;
  let assessment: Promise<CliAssessment>;
  const groups = new Map<string, CliGroup>();

  beforeAll(async () => {
    // Its gate holds a task's first command until all four run, which a loaded machine can take minutes to reach;
    // and four run at once whatever this machine's free disk holds of shares (the tasks write next to nothing).
    stack = await CliAgentStack.start('claude-code', await FakeLlmServer.start(), { green: { COMMAND_TIMEOUT_S: '900', TASKS_DISK_TOTAL: '0' } });
    greenPid = stack.green.child.pid as number;
    for (const taskId of TASKS) {
      if (taskId === CANCELED) stack.llm.scriptFor(MARKERS[taskId], toolCall('mcp__task__shell', { command: WAIT }), reply('never reached'));
      else
        stack.llm.scriptFor(
          MARKERS[taskId],
          toolCall('mcp__task__shell', { command: WAIT }, { usage: { input: 900, output: 30 } }),
          toolCall('mcp__task__shell', { command: write(taskId) }, { usage: { input: 1100, output: 120 } }),
          toolCall('mcp__task__submit', {}, { usage: { input: 1300, output: 10 } }),
          reply('Submitted the root cause.', { usage: { input: 1400, output: 8 } }),
        );
    }
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    await assessment?.catch(() => undefined);
    // Should the product have left any of it, it goes here (the test has failed by then).
    await containers.removeOfProcesses([greenPid]);
    for (const { pgid } of groups.values()) if (liveInGroup(pgid).length > 0) process.kill(-pgid, 'SIGKILL');
  }, 120_000);

  it('runs each in a CLI of its own; the cancel ends its CLI’s group at once, the other three are scored as scripted, and nothing is left', async () => {
    assessment = stack.assess(TASKS, 4);
    let ended: CliAssessment | undefined;
    void assessment.then((done) => (ended = done)).catch(() => undefined);
    let seen = 0;
    const running = await waitUntil(
      'four task containers',
      async () => {
        if (ended) throw new Error(`the assessment ended before its four tasks ran at once: ${stack.explain(ended.events)}`);
        const found = await containers.ofProcess(greenPid);
        seen = found.length;
        return found.length === TASKS.length ? found : undefined;
      },
      240_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message} (${seen} seen); ${stack.explain([])}`);
    });
    for (const container of running) await containers.waitForProcess(container.Id, /four-at-once-gate/, 300_000);

    // Each task's CLI: the processes naming its task id (in the prompt of their argv) with this test's stand-in as
    // their endpoint, all in one group of their own, with a HOME and a working folder of their own.
    const purpleGroup = processes().find((info) => info.pid === stack.purple.child.pid)?.pgid;
    for (const taskId of TASKS) {
      const cli = processesNaming(MARKERS[taskId]).filter(
        (info) => info.pgid !== purpleGroup && environValue(info.pid, 'ANTHROPIC_BASE_URL') === stack.llm.anthropicBaseUrl,
      );
      const pgids = [...new Set(cli.map((info) => info.pgid))];
      expect({ taskId, pgids: pgids.length }).toEqual({ taskId, pgids: 1 });
      groups.set(taskId, { pgid: pgids[0], home: environValue(pgids[0], 'HOME') ?? '', workdir: workingFolder(pgids[0]) ?? '' });
    }
    const found = [...groups.values()];
    const distinct = (values: unknown[]): number => new Set(values).size;
    expect([distinct(found.map((group) => group.pgid)), distinct(found.map((group) => group.home)), distinct(found.map((group) => group.workdir))]).toEqual([
      4, 4, 4,
    ]);
    expect(found.every((group) => existsSync(group.home) && existsSync(group.workdir))).toBe(true);

    // The cancel, at the purple agent, of the one task's A2A task: its CLI's group ends at once.
    const solverTask = await stack.solverTask(MARKERS[CANCELED]);
    expect(solverTask).toBeDefined();
    const canceled = groups.get(CANCELED) as CliGroup;
    const canceledAt = Date.now();
    expect(await new A2aClientFactory().peer(stack.purple.url).cancel(solverTask as string, { deadlineMs: 30_000 })).toBe('canceled');
    await waitUntil('the canceled CLI’s group to end', () => (liveInGroup(canceled.pgid).length === 0 ? true : undefined), 10_000, 20);
    const endedInMs = Date.now() - canceledAt;
    await waitUntil(
      'the canceled CLI’s HOME and working folder to go',
      () => (existsSync(canceled.home) || existsSync(canceled.workdir) ? undefined : true),
      10_000,
      50,
    );
    // The other three go on: their CLIs alive, still in their first command.
    for (const [taskId, { pgid }] of groups)
      if (taskId !== CANCELED) expect({ taskId, alive: liveInGroup(pgid).includes(pgid) }).toEqual({ taskId, alive: true });

    for (const container of await containers.ofProcess(greenPid)) await containers.run(container.Id, ['touch', GATE]);
    const { events, result } = await assessment;
    if (!result) throw new Error(`no Result artifact; ${stack.explain(events)}`);

    expect(endedInMs).toBeLessThan(5_000);
    for (const taskId of Object.keys(ROOT_CAUSES))
      expect({ taskId, ...result.task_metrics[taskId] }).toMatchObject({
        taskId,
        status: 'scored',
        solver_exit_status: 'Submitted',
        file_acc: 1,
        func_recall: 1,
      });
    expect(result.task_metrics[CANCELED]).toMatchObject({ file_acc: 0 });
    expect(result.task_metrics[CANCELED].solver_exit_status).not.toBe('Submitted');
    for (const taskId of Object.keys(ROOT_CAUSES)) expect({ taskId, pending: stack.llm.pendingFor(MARKERS[taskId]) }).toEqual({ taskId, pending: 0 });

    // Nothing left behind: no task container, no task workspace, no CLI process, no CLI HOME or working folder.
    expect(await containers.ofProcess(greenPid)).toEqual([]);
    expect(readdirSync(stack.scratch.tasks)).toEqual([]);
    await waitUntil('every CLI’s group to end', () => (found.every((group) => liveInGroup(group.pgid).length === 0) ? true : undefined), 30_000);
    await waitUntil(
      'every CLI’s HOME and working folder to go',
      () => (found.some((group) => existsSync(group.home) || existsSync(group.workdir)) ? undefined : true),
      30_000,
    );
  }, 900_000);
});
