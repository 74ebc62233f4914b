import { existsSync, readdirSync } from 'node:fs';
import { describeWithDocker } from '@arvo-rca/arvo-docker/testing';
import { Scratch } from './support/processes/agent-processes';
import { BASELINE_SCORES, scoresOf } from './support/records/baseline-scores';
import {
  assessThrough,
  containersLabelled,
  deadOwnerId,
  plantDeadOwnersContainer,
  plantStaleTaskFolder,
  removeOnEngine,
  type Assessed,
} from './support/a2a/gateway-assessment';
import { GatewayStandIn, type RefusedCall } from './support/a2a/gateway-stand-in';

const SAMPLES = ['sample:1', 'sample:2', 'sample:3', 'sample:4', 'sample:5'];
const ONE = ['sample:3'];

/** Whether a refused call is one the test itself told the stand-in to refuse. */
function told(call: RefusedCall, rule: RegExp): boolean {
  return rule.test(`${call.method} ${call.path.replace(/^\/v[\d.]+/, '')}`);
}

/** Nest's shutdown hooks ran to their end, and the process ended as SIGTERM asked (Nest re-raises it), not on a crash. */
function expectCleanShutdown(run: Assessed): void {
  expect([0, 'SIGTERM']).toContain(run.green.child.exitCode ?? run.green.child.signalCode);
  expect(run.green.log).not.toMatch(/unhandled|uncaught/i);
}

describeWithDocker("an assessment through AgentBeats' Docker gateway (a stand-in enforcing its documented policy)", () => {
  const gateway = new GatewayStandIn();
  const scratch = new Scratch();
  let run: Assessed;

  beforeAll(async () => {
    await gateway.start();
    run = await assessThrough(gateway, scratch, SAMPLES);
  });

  afterAll(async () => {
    await Promise.all([run?.green.stop(), run?.purple.stop()]);
    await gateway.stop();
    scratch.remove();
  });

  it('scores every sample as on the engine itself', () => {
    expect(scoresOf(run.result)).toEqual(BASELINE_SCORES);
  });

  it('never makes a call the gateway refuses: no image build, import or delete, nothing it cannot scope', () => {
    expect(gateway.refused()).toEqual([]);
  });

  it('ran each task in a container it made through the gateway, and left none behind, nor any workspace', async () => {
    expect(run.green.log).toMatch(/sandbox arvo_\d_[0-9a-f]+ started \(docker\)/);
    expect(await containersLabelled(gateway, `:${run.green.child.pid}:`)).toEqual([]);
    expect(readdirSync(scratch.tasks)).toEqual([]);
  });
});

describeWithDocker('container removals the gateway refuses (403) are logged, never fatal', () => {
  const gateway = new GatewayStandIn(['DELETE /containers/']);
  const scratch = new Scratch();
  const deadOwner = deadOwnerId();
  let stale: string;
  let run: Assessed;

  beforeAll(async () => {
    await gateway.start();
    await plantDeadOwnersContainer(gateway, deadOwner);
    stale = plantStaleTaskFolder(scratch);
    run = await assessThrough(gateway, scratch, ONE);
  });

  afterAll(async () => {
    await Promise.all([run?.green.stop(), run?.purple.stop()]);
    // What the refused removals left, removed on the engine itself.
    await removeOnEngine(gateway, [
      ...(await containersLabelled(gateway, deadOwner)),
      ...(run ? await containersLabelled(gateway, `:${run.green.child.pid}:`) : []),
    ]);
    await gateway.stop();
    scratch.remove();
  });

  it('still ends the task with its score', () => {
    expect(scoresOf(run.result)).toEqual({ 'sample:3': BASELINE_SCORES['sample:3'] });
  });

  it("logs the boot reaper's refused removal and reaps the rest (a stale task folder)", () => {
    expect(run.green.log).toMatch(/reaping leftovers: removing \S+ failed: refused by the stand-in/);
    expect(existsSync(stale)).toBe(false);
  });

  it("logs the task's refused container removal", async () => {
    await run.green.printed(/sandbox removal failed: .*refused by the stand-in/);
  });

  it('was refused container removals only, and shuts down cleanly', async () => {
    expect(gateway.refused().length).toBeGreaterThan(0);
    expect(gateway.refused().filter((call) => !told(call, /^DELETE \/containers\//))).toEqual([]);
    await run.green.stop();
    expectCleanShutdown(run);
    expect(run.green.log).toMatch(/removed this instance's sandboxes on SIGTERM|removing this instance's sandboxes failed/);
  });
});

describeWithDocker('a list of containers the gateway refuses (403) is logged, never fatal', () => {
  const gateway = new GatewayStandIn(['GET /containers/json']);
  const scratch = new Scratch();
  let stale: string;
  let run: Assessed;

  beforeAll(async () => {
    await gateway.start();
    stale = plantStaleTaskFolder(scratch);
    run = await assessThrough(gateway, scratch, ONE);
  });

  afterAll(async () => {
    await Promise.all([run?.green.stop(), run?.purple.stop()]);
    await gateway.stop();
    scratch.remove();
  });

  it('still ends the task with its score, its container removed', async () => {
    expect(scoresOf(run.result)).toEqual({ 'sample:3': BASELINE_SCORES['sample:3'] });
    expect(await containersLabelled(gateway, `:${run.green.child.pid}:`)).toEqual([]);
  });

  it("logs the boot reaper's refused list and still reaps stale task folders", () => {
    expect(run.green.log).toMatch(/reaping leftovers failed: refused by the stand-in/);
    expect(existsSync(stale)).toBe(false);
  });

  it('was refused lists only, and shuts down cleanly, logging the list it could not make', async () => {
    await run.green.stop();
    expectCleanShutdown(run);
    expect(run.green.log).toMatch(/removing this instance's sandboxes failed: .*refused by the stand-in/);
    expect(gateway.refused().filter((call) => !told(call, /^GET \/containers\/json/))).toEqual([]);
  });
});
