import { A2aClientFactory, type TaskProgressLine } from '@arvo-rca/a2a-protocol';
import { DockerEngine, NeededImages } from '@arvo-rca/arvo-docker';
import { describeWithDocker, removeImage } from '@arvo-rca/arvo-docker/testing';
import Docker from 'dockerode';
import { callingBack } from '../../stage/solver-stand-in.testing';
import {
  firstAt,
  leftBehind,
  MIB,
  ownerOf,
  placeOf,
  runAssessment,
  startAheadScene,
  ThrottledArvo,
  type AheadScene,
  type AssessmentRun,
} from './fetch-ahead.testing';

// Each task's image: about 2.5 s through the throttle; each task's solving: 3 s.
const BYTES_PER_SECOND = 20 * MIB;
const LAYER_MIB = 50;
const SOLVE_S = 3;
const IDS = ['7101', '7102', '7103'];
const CALIBRATION = '7100';

const isPull = (line: TaskProgressLine): boolean => line.kind === 'pull';
const isFinished = (line: TaskProgressLine): boolean => line.kind === 'finished';
const isStep = (line: TaskProgressLine): boolean => line.kind === 'step';

describeWithDocker('the green agent fetches the next tasks ahead of their turn, against a real registry behind a throttle', () => {
  let arvo: ThrottledArvo;
  let scene: AheadScene | undefined;

  beforeAll(async () => {
    arvo = await ThrottledArvo.start([CALIBRATION, ...IDS], LAYER_MIB, BYTES_PER_SECOND);
  }, 240_000);

  afterEach(async () => {
    await scene?.close();
    scene = undefined;
    await arvo.clearImages();
  }, 60_000);

  afterAll(async () => {
    await arvo?.stop();
  }, 60_000);

  async function assess(env: Record<string, string>, taskIds: string[], concurrency: number): Promise<AssessmentRun> {
    scene = await startAheadScene(callingBack([`sleep ${SOLVE_S}`]), { ...arvo.env, ...env });
    const run = await runAssessment(scene, taskIds, concurrency);
    await scene.close();
    scene = undefined;
    await arvo.clearImages();
    return run;
  }

  it('hides the pulls of the next tasks behind the solving of the current ones, where a window of 0 pulls each at its turn', async () => {
    // One pull alone through the throttle: what fetching ahead can hide of each task after the first.
    const engine = DockerEngine.fromEnvironment();
    const pullStarted = Date.now();
    await engine.pullImage(arvo.image(CALIBRATION), new AbortController().signal, () => undefined);
    const pullS = (Date.now() - pullStarted) / 1000;
    await removeImage(new Docker(), arvo.image(CALIBRATION));
    const taskIds = IDS.map((id) => `arvo:${id}`);

    const one = await assess({ FETCH_AHEAD: '0' }, taskIds, 1);
    const ahead = await assess({}, taskIds, 1);

    for (const run of [one, ahead]) expect(run.lines.filter(({ line }) => isFinished(line)).map(({ line }) => line.task)).toEqual(taskIds);
    for (let k = 1; k < taskIds.length; k++) {
      // Window 0, as before: a task's image is pulled only once its turn comes, after the task before it ended.
      expect(placeOf(one, taskIds[k], isPull)).toBeGreaterThan(placeOf(one, taskIds[k - 1], isFinished));
      // The window of the default size (the concurrency, 1): while the task before it runs.
      expect(placeOf(ahead, taskIds[k], isPull)).toBeLessThan(placeOf(ahead, taskIds[k - 1], isFinished));
    }
    // How much of the pulls this hides is a speed target, measured by the bench (fetch_ahead in
    // tools/bench/figures/fetch-ahead.bench.ts); here it is only reported: the other suites of CI beside this one
    // stretch the starts and the solving by more than the pulls take.
    const waits = (run: AssessmentRun): number =>
      taskIds.slice(1).reduce((sum, task, k) => sum + (firstAt(run, task, isStep) - firstAt(run, taskIds[k], isFinished)) / 1000, 0);
    console.log(
      `one pull ${pullS.toFixed(1)} s, solving ${SOLVE_S} s: window 0 took ${one.seconds.toFixed(1)} s (waits ${waits(one).toFixed(1)} s), ` +
        `window 1 ${ahead.seconds.toFixed(1)} s (waits ${waits(ahead).toFixed(1)} s)`,
    );
  }, 300_000);

  it('pulls the image that two tasks need once, whether both start at once or one fetches it ahead', async () => {
    const id = IDS[0];
    const before = arvo.proxy.pullsOf(arvo.tag(id));

    const both = await assess({}, [`arvo:${id}`, `arvo:${id}`], 2);
    expect(both.lines.filter(({ line }) => isFinished(line))).toHaveLength(2);
    expect(arvo.proxy.pullsOf(arvo.tag(id)) - before).toBe(1);

    const inTurn = await assess({}, [`arvo:${id}`, `arvo:${id}`], 1);
    expect(inTurn.lines.filter(({ line }) => isFinished(line))).toHaveLength(2);
    expect(arvo.proxy.pullsOf(arvo.tag(id)) - before).toBe(2);
  }, 300_000);
});

describeWithDocker('tasks prepared ahead of their turn, against a real registry behind a throttle', () => {
  const IDS_PREPARED = ['7301', '7302'];
  // An image of 100 MiB, about 5 s through the throttle: a task's sandbox waits on its pull that long.
  const SLOW = '7303';
  let arvo: ThrottledArvo;
  let scene: AheadScene | undefined;

  beforeAll(async () => {
    arvo = await ThrottledArvo.start([...IDS_PREPARED, SLOW], [20, 20, 100], BYTES_PER_SECOND);
  }, 240_000);

  afterEach(async () => {
    await scene?.close();
    scene = undefined;
    await arvo.clearImages();
  }, 60_000);

  afterAll(async () => {
    await arvo?.stop();
  }, 60_000);

  it("starts the next task's sandbox before its turn, hands it over only then, and starts its time limit there", async () => {
    // Each task solves for 5 s of its 8: timed from its preparation, the second would run out during its solving.
    scene = await startAheadScene(callingBack(['sleep 5']), { ...arvo.env, TASK_TIMEOUT_S: '8' });
    const taskIds = IDS_PREPARED.map((id) => `arvo:${id}`);

    const run = await runAssessment(scene, taskIds, 1);

    const readyAhead = (line: TaskProgressLine): boolean => line.kind === 'note' && /sandbox ready ahead of the task's turn/.test(line.text);
    expect(placeOf(run, taskIds[1], readyAhead)).toBeLessThan(placeOf(run, taskIds[0], isFinished));
    // Handed over at its turn: the solver's first command on the second task came after the first task ended.
    expect(placeOf(run, taskIds[1], (line) => line.kind === 'step')).toBeGreaterThan(placeOf(run, taskIds[0], isFinished));
    const second = scene.solver.runs[1];
    expect(second.answers[0]).toMatch(/^<returncode>0<\/returncode>/);
    expect(second.answers[1]).toMatch(/^\[TASK COMPLETED\] Commands executed: 1, Failed: 0, Time: [5-7]\.\d+s$/);
    expect(run.lines.filter(({ line }) => isFinished(line)).map(({ line }) => line.task)).toEqual(taskIds);
  }, 240_000);

  // A disk that held two shares, at two tasks at once with two made ahead, hung an assessment for good: the
  // tasks made ahead took both shares first, and waited for the turns of the tasks that waited for a share.
  it('runs the task whose turn it is when the disk holds one share, the task made ahead of it ready and holding none', async () => {
    const [current, next] = [SLOW, IDS_PREPARED[1]];
    // The next task's image is on the engine already, and the current task's is pulled for about 5 s: the
    // sandbox made ahead is ready before the current task's first step, while that task's image is still being
    // pulled (the window leaves the current task to its own run's pull rather than wait for it), and it holds
    // no share while the current task runs and holds the one there is: the order that hung an assessment
    // before turns took shares.
    await new Promise<void>((resolve, reject) => {
      new Docker().pull(arvo.image(next), (error: Error | null, stream?: NodeJS.ReadableStream) => {
        if (error || !stream) return reject(error ?? new Error('no pull stream'));
        new Docker().modem.followProgress(stream, (failed: Error | null) => (failed ? reject(failed) : resolve()));
      });
    });
    scene = await startAheadScene(callingBack(['sleep 3']), { ...arvo.env, CONTAINER_DISK: '256m', TASKS_DISK_TOTAL: '300m' });
    const taskIds = [current, next].map((id) => `arvo:${id}`);

    const run = await runAssessment(scene, taskIds, 1);

    const readyAhead = (line: TaskProgressLine): boolean => line.kind === 'note' && /sandbox ready ahead of the task's turn/.test(line.text);
    const pulled = (line: TaskProgressLine): boolean => line.kind === 'pull' && line.layers > 0 && line.layersDone === line.layers;
    expect(placeOf(run, taskIds[0], pulled)).toBeLessThan(placeOf(run, taskIds[0], isStep));
    expect(placeOf(run, taskIds[1], readyAhead)).toBeLessThan(placeOf(run, taskIds[0], pulled));
    expect(run.lines.filter(({ line }) => isFinished(line)).map(({ line }) => line.task)).toEqual(taskIds);
    expect(run.events.at(-1)).toMatchObject({ kind: 'status', state: 'completed' });
  }, 120_000);

  it('leaves no prepared container and no workspace behind when its assessment is canceled while the next task waits for its turn', async () => {
    scene = await startAheadScene([{ ask: 'execute: echo working' }, { silent: true }], arvo.env);
    const taskIds = IDS_PREPARED.map((id) => `arvo:${id}`);
    const clients = new A2aClientFactory();
    let canceled: Promise<string> | undefined;
    const cancelOnce = (run: AssessmentRun): void => {
      const prepared = run.lines.some(({ line }) => line.task === taskIds[1] && line.kind === 'note' && /sandbox ready ahead/.test(line.text));
      const working = run.lines.some(({ line }) => line.task === taskIds[0] && line.kind === 'step');
      const taskId = run.events.find((event) => event.kind === 'task' || event.kind === 'status');
      if (canceled || !working || !prepared || !taskId) return;
      canceled = clients.peer(scene?.green.url ?? '').cancel(taskId.taskId, { deadlineMs: 30_000 });
    };

    const run = await runAssessment(scene, taskIds, 1, cancelOnce);

    expect(await canceled).toBe('canceled');
    expect(run.events.at(-1)).toMatchObject({ kind: 'status', state: 'canceled' });
    // The second task never reached the solver.
    expect(scene.solver.runs).toHaveLength(1);
    await waitFor(async () => {
      const left = await leftBehind(scene as AheadScene);
      return left.containers.length === 0 && left.folders.length === 0;
    }, 30_000);
  }, 240_000);

  it('removes the prepared container and its workspace when the agent shuts down while the next task waits for its turn', async () => {
    scene = await startAheadScene([{ ask: 'execute: echo working' }, { silent: true }], arvo.env);
    const owner = ownerOf(scene);
    const taskIds = IDS_PREPARED.map((id) => `arvo:${id}`);
    let closed: Promise<void> | undefined;
    const shutDownOnce = (run: AssessmentRun): void => {
      const prepared = run.lines.some(({ line }) => line.task === taskIds[1] && line.kind === 'note' && /sandbox ready ahead/.test(line.text));
      const working = run.lines.some(({ line }) => line.task === taskIds[0] && line.kind === 'step');
      if (!closed && working && prepared) closed = scene?.closeGreen();
    };

    await runAssessment(scene, taskIds, 1, shutDownOnce).catch(() => undefined);
    await closed;

    // Shut down once the second task's sandbox waited for its turn: that task never reached the solver.
    expect(closed).toBeDefined();
    expect(scene.solver.runs).toHaveLength(1);
    expect(await leftBehind(scene, owner)).toEqual({ containers: [], folders: [] });
  }, 240_000);
});

describeWithDocker('a canceled assessment, against a real registry behind a throttle', () => {
  const clients = new A2aClientFactory();
  // The second task's image takes about 10 s: its pull ahead is under way when the assessment is canceled.
  const [FIRST, SECOND] = ['7201', '7202'];
  let arvo: ThrottledArvo;
  let scene: AheadScene | undefined;

  beforeAll(async () => {
    arvo = await ThrottledArvo.start([FIRST, SECOND], [20, 200], BYTES_PER_SECOND);
  }, 240_000);

  afterAll(async () => {
    await scene?.close();
    await arvo?.stop();
  }, 60_000);

  it("leaves no container, no workspace and no pull for nobody behind while the next task's image is pulled ahead", async () => {
    // The solver runs one command, then thinks for ever.
    scene = await startAheadScene([{ ask: 'execute: echo working' }, { silent: true }], arvo.env);
    const taskIds = [`arvo:${FIRST}`, `arvo:${SECOND}`];
    let canceled: Promise<string> | undefined;
    const cancelOnce = (run: AssessmentRun): void => {
      const working = run.lines.some(({ line }) => line.task === taskIds[0] && line.kind === 'step');
      const pullingAhead = run.lines.some(({ line }) => line.task === taskIds[1] && line.kind === 'pull');
      const taskId = run.events.find((event) => event.kind === 'task' || event.kind === 'status');
      if (canceled || !working || !pullingAhead || !taskId) return;
      // The pull line comes as the green agent asks the engine; the cancel waits until the engine has
      // asked the registry for the manifest, so that a pull is surely under way when it comes.
      canceled = waitFor(async () => arvo.proxy.pullsOf(arvo.tag(SECOND)) > 0, 30_000).then(() =>
        clients.peer(scene?.green.url ?? '').cancel(taskId.taskId, { deadlineMs: 30_000 }),
      );
    };

    const run = await runAssessment(scene, taskIds, 1, cancelOnce);
    const answer = await canceled;
    await waitFor(async () => {
      const left = await leftBehind(scene as AheadScene);
      return left.containers.length === 0 && left.folders.length === 0;
    }, 30_000).catch(() => undefined);
    const needed = scene.green.app.get(NeededImages);
    // The second task's pull began ahead, and the engine gave it up: its image never arrives.
    await new Promise((resolve) => setTimeout(resolve, 12_000));
    // One outcome, so that a failure shows all of it.
    expect({
      answer,
      last: run.events.at(-1),
      left: await leftBehind(scene),
      needed: [FIRST, SECOND].map((id) => needed.isNeeded(arvo.image(id))),
      pullsOfSecond: arvo.proxy.pullsOf(arvo.tag(SECOND)),
      secondOnEngine: await arvo.onEngine(SECOND),
    }).toEqual({
      answer: 'canceled',
      last: expect.objectContaining({ kind: 'status', state: 'canceled' }),
      left: { containers: [], folders: [] },
      needed: [false, false],
      pullsOfSecond: 1,
      secondOnEngine: false,
    });
  }, 240_000);
});

async function waitFor(condition: () => Promise<boolean>, ms: number): Promise<void> {
  const until = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > until) throw new Error(`not so within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
