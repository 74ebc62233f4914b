/* eslint-disable @nx/enforce-module-boundaries -- the install is the purple agent's own (cli-install.ts), run here ahead of the first task. */
// `npm run agents -- install [claude-code|codex|gemini-cli ...]`: installs the CLI agents the purple agent can
// run (AGENT_CLI) into the project's cache ahead of time, at their pinned versions, install scripts off.
// `npm run agents -- list` says which are installed where.
import { existsSync } from 'node:fs';
import { AGENT_CLI_NAMES, type AgentCliName } from '../../apps/purple-agent/src/app/cli/agent-cli';
import { AGENT_CLIS } from '../../apps/purple-agent/src/app/cli/agent-clis';
import { agentCliCache, cliPackageDir, installedCli } from '../../apps/purple-agent/src/app/cli/cli-install';

const USAGE = `usage: npm run agents -- install [${AGENT_CLI_NAMES.join('|')} ...]   (all when none is named)
       npm run agents -- list`;

async function main(args: string[]): Promise<number> {
  const [command, ...named] = args;
  const unknown = named.filter((name) => !(AGENT_CLI_NAMES as readonly string[]).includes(name));
  if ((command !== 'install' && command !== 'list') || unknown.length > 0) {
    console.error(unknown.length > 0 ? `unknown agent ${unknown.join(', ')}; the agents are ${AGENT_CLI_NAMES.join(', ')}\n${USAGE}` : USAGE);
    return 2;
  }
  const names = (named.length > 0 ? named : AGENT_CLI_NAMES) as AgentCliName[];
  const cache = agentCliCache();
  let failed = 0;
  for (const name of names) {
    const cli = AGENT_CLIS[name];
    if (command === 'list') {
      const dir = cliPackageDir(cli, cache);
      console.log(`${name}: ${cli.packageName}@${cli.version} ${existsSync(dir) ? `installed in ${dir}` : 'not installed'}`);
      continue;
    }
    const started = Date.now();
    try {
      const dir = await installedCli(cli, cache);
      console.log(`${name}: ${cli.packageName}@${cli.version} in ${dir} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    } catch (error) {
      failed += 1;
      console.error(`${name}: ${(error as Error).message}`);
    }
  }
  return failed > 0 ? 1 : 0;
}

void main(process.argv.slice(2)).then((code) => (process.exitCode = code));
