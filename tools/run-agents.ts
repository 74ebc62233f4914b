// `npm start`, until the assessment runner lands: starts both agents from their builds as real
// processes sharing one run log directory, waits until each serves its A2A card, prints the cards and
// the bundled sample tasks, then stops both agents.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AGENT_CARD_PATH } from '@arvo-rca/a2a-protocol';
import { createDockerClient, engineAnswers, listSampleIds, readSampleManifest, sampleImageTag } from '@arvo-rca/arvo-docker';
import { runDirectoryName } from '@arvo-rca/task-logging';
import { SAMPLES_DIR } from './samples/sample-tasks';

const ROOT = resolve(__dirname, '..');
const CARD_DEADLINE_MS = 30_000;

interface AgentProcess {
  name: string;
  url: string;
  child: ChildProcess;
}

function startAgent(name: string, port: number, env: NodeJS.ProcessEnv): AgentProcess {
  const child = spawn(process.execPath, [join(ROOT, 'dist', 'apps', name, 'main.js'), '--port', String(port)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  return { name, url: `http://127.0.0.1:${port}/`, child };
}

async function waitForCard(agent: AgentProcess): Promise<Record<string, unknown>> {
  const deadline = Date.now() + CARD_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (agent.child.exitCode !== null) throw new Error(`${agent.name} exited with code ${agent.child.exitCode}`);
    try {
      const response = await fetch(new URL(AGENT_CARD_PATH, agent.url), { signal: AbortSignal.timeout(2000) });
      if (response.ok) return (await response.json()) as Record<string, unknown>;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${agent.name} served no card at ${agent.url} within ${CARD_DEADLINE_MS / 1000}s`);
}

async function stop(agent: AgentProcess): Promise<void> {
  if (agent.child.exitCode !== null || agent.child.signalCode !== null) return;
  const exited = new Promise((done) => agent.child.once('exit', done));
  agent.child.kill('SIGTERM');
  await exited;
}

async function describeSamples(): Promise<string[]> {
  const docker = createDockerClient();
  const engine = await engineAnswers(docker);
  const lines: string[] = [];
  for (const id of await listSampleIds(SAMPLES_DIR)) {
    const sample = await readSampleManifest(SAMPLES_DIR, id);
    const image = engine ? await docker.getImage(sampleImageTag(id)).inspect().then(() => 'image built', () => 'image missing: npm run images') : 'no engine';
    lines.push(`  sample:${id}  ${sample.project.padEnd(9)} ${sample.bugClass.padEnd(46)} ${image}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const runDir = join(ROOT, 'logs', runDirectoryName(new Date()));
  mkdirSync(runDir, { recursive: true });
  const shared = { LOG_RUN_DIR: runDir, PURPLE_AGENT_URL: 'http://127.0.0.1:9019/', GREEN_AGENT_URL: 'http://127.0.0.1:9009/' };
  const agents = [startAgent('green-agent', 9009, shared), startAgent('purple-agent', 9019, shared)];
  try {
    for (const agent of agents) {
      const card = await waitForCard(agent);
      console.log(`\n${agent.name} at ${agent.url}: "${card['name']}" v${card['version']}\n  ${card['description']}`);
    }
    console.log(`\nBundled sample tasks (${SAMPLES_DIR}):\n${(await describeSamples()).join('\n')}`);
    console.log(`\nRun log directory: ${runDir}`);
  } finally {
    await Promise.all(agents.map(stop));
  }
}

main().catch((error: Error) => {
  console.error(`start: ${error.message}`);
  process.exit(1);
});
