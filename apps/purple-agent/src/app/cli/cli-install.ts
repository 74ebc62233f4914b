// A CLI agent's package, installed from the npm registry on first use into the project's cache, at its
// pinned version, with install scripts off; never part of `npm ci`'s tree (they are 100 to 420 MB each).
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { CodedError } from '@arvo-rca/common';
import type { AgentCli } from './agent-cli';

const run = promisify(execFile);

/**
 * The cache the CLIs are installed into: AGENT_CLI_CACHE, else the project's folder in the user's cache
 * (`$XDG_CACHE_HOME/arvo-rca/agent-clis`, `~/.cache/arvo-rca/agent-clis`), shared by every clone and process.
 */
export function agentCliCache(env: Readonly<Record<string, string | undefined>> = process.env): string {
  const given = env['AGENT_CLI_CACHE'];
  if (given) return resolve(given);
  return join(env['XDG_CACHE_HOME'] || join(env['HOME'] || homedir(), '.cache'), 'arvo-rca', 'agent-clis');
}

/** Where one CLI's package lives once installed: `<cache>/<name>-<version>/node_modules/<package>`. */
export function cliPackageDir(cli: AgentCli, cache: string): string {
  return join(cache, `${cli.name}-${cli.version}`, 'node_modules', ...cli.packageName.split('/'));
}

export class CliInstallError extends CodedError<'AGENT_CLI_INSTALL'> {}

const installing = new Map<string, Promise<string>>();

/**
 * The CLI's package folder, installing it first when it is not in the cache. Tasks that start at once share
 * one install; a failed one leaves nothing half made and says what to run.
 */
export function installedCli(cli: AgentCli, cache: string): Promise<string> {
  const dir = cliPackageDir(cli, cache);
  if (isInstalled(cli, dir)) return Promise.resolve(dir);
  const pending = installing.get(dir) ?? install(cli, cache, dir).finally(() => installing.delete(dir));
  installing.set(dir, pending);
  return pending;
}

function isInstalled(cli: AgentCli, dir: string): boolean {
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version?: string };
    return manifest.version === cli.version && existsSync(join(dir, cli.entry));
  } catch {
    return false;
  }
}

async function install(cli: AgentCli, cache: string, dir: string): Promise<string> {
  const prefix = join(cache, `${cli.name}-${cli.version}`);
  const staging = `${prefix}.installing-${process.pid}-${Date.now()}`;
  const spec = `${cli.packageName}@${cli.version}`;
  try {
    // A cache that cannot be made fails as an install does, saying what to do.
    mkdirSync(staging, { recursive: true });
    const [command, args] = npmCommand([
      'install',
      '--prefix',
      staging,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--omit=dev',
      '--no-save',
      '--loglevel=error',
      spec,
    ]);
    await run(command, args, { maxBuffer: 16 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false' } });
    rmSync(prefix, { recursive: true, force: true });
    renameSync(staging, prefix);
  } catch (error) {
    // Whatever was made goes; a staging folder that could not be made is no error of its own (Node 22's rmSync
    // throws ENOTDIR under a file, where 24's does not).
    try {
      rmSync(staging, { recursive: true, force: true });
    } catch {
      // nothing of it to remove
    }
    const output = (error as { stderr?: string }).stderr?.trim().split('\n').slice(-3).join(' ') || (error as Error).message;
    throw new CliInstallError(
      'AGENT_CLI_INSTALL',
      `cannot install ${spec} into ${cache}: ${output}. Run \`npm run agents -- install ${cli.name}\` where the npm registry is reachable, or set AGENT_CLI_CACHE to a folder where it is installed`,
    );
  }
  if (!isInstalled(cli, dir)) throw new CliInstallError('AGENT_CLI_INSTALL', `${spec} was installed into ${cache} but ${cli.entry} is not in it`);
  return dir;
}

/** npm as the running node ships it, else the one on PATH. */
function npmCommand(args: string[]): [string, string[]] {
  const bundled = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  return existsSync(bundled) ? [process.execPath, [bundled, ...args]] : ['npm', args];
}
