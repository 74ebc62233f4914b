import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { waitUntil } from '@arvo-rca/common/testing';
import { AgentClis, AGENT_CLIS } from './agent-clis';
import { AGENT_CLI_NAMES } from './agent-cli';
import { installedCli } from './cli-install';

/** A logger that keeps its lines (`<level>: <message>`) instead of printing them. */
class ListLogger extends Logger {
  constructor(private readonly lines: string[]) {
    super('AgentCli');
  }
  override log(message: unknown): void {
    this.lines.push(`log: ${String(message)}`);
  }
  override error(message: unknown): void {
    this.lines.push(`error: ${String(message)}`);
  }
}

describe('the CLI agent the purple agent runs (AGENT_CLI)', () => {
  let cache: string;

  beforeEach(() => {
    cache = mkdtempSync(join(tmpdir(), 'agent-clis-spec-'));
  });

  afterEach(() => {
    rmSync(cache, { recursive: true, force: true });
  });

  it('declares each of the three, pinned to an exact version', () => {
    expect(Object.keys(AGENT_CLIS).sort()).toEqual([...AGENT_CLI_NAMES].sort());
    for (const cli of Object.values(AGENT_CLIS)) expect(cli.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('is none when AGENT_CLI is unset: our own agent solves', () => {
    const clis = new AgentClis({}, {});
    expect(clis.cli).toBeUndefined();
    expect(clis.modelName).toBeUndefined();
  });

  it.each([
    ['claude-code', 'ANTHROPIC_API_KEY'],
    ['codex', 'OPENAI_API_KEY'],
    ['gemini-cli', 'GEMINI_API_KEY'],
  ] as const)('stops the agent at boot when %s has no key, naming %s', (name, variable) => {
    expect(() => new AgentClis({ AGENT_CLI: name }, { AGENT_CLI_CACHE: cache })).toThrow(
      expect.objectContaining({ code: 'AGENT_CLI_KEY_MISSING', message: `AGENT_CLI=${name} needs its provider key in ${variable}, which is not set` }),
    );
  });

  it('names the solver’s model as the card and the Result show it: the CLI, its version and the model', async () => {
    // The background install its boot starts fails at once here (its cache cannot be made under a file): a
    // cache it could fill would get the 424 MB package after this test removed it, from every run.
    writeFileSync(join(cache, 'a-file'), '');
    const logged: string[] = [];
    const clis = new AgentClis(
      { AGENT_CLI: 'codex', AGENT_CLI_MODEL: 'gpt-5.5' },
      { OPENAI_API_KEY: 'sk-test', AGENT_CLI_CACHE: join(cache, 'a-file', 'cache') },
      new ListLogger(logged),
    );
    expect(clis.modelName).toBe(`codex@${AGENT_CLIS.codex.version}/gpt-5.5`);
    await waitUntil('the install to fail', () => logged.find((line) => line.startsWith('error: cannot install @openai/codex')), 10_000, 20);
    expect(readdirSync(cache)).toEqual(['a-file']);
  });

  it('says what to run when the install fails, and leaves nothing half made in the cache', async () => {
    const missing = { ...AGENT_CLIS['gemini-cli'], version: '0.0.0-no-such-version' };

    await expect(installedCli(missing, cache)).rejects.toThrow(
      expect.objectContaining({
        code: 'AGENT_CLI_INSTALL',
        message: expect.stringMatching(/^cannot install @google\/gemini-cli@0\.0\.0-no-such-version into .*Run `npm run agents -- install gemini-cli`/s),
      }),
    );
    expect(readdirSync(cache)).toEqual([]);
  }, 120_000);
});
