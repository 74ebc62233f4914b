import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';

/** A setting as a green agent started in `dir` reads it: the environment first, then `.env` in `dir`; undefined when neither sets it. */
export function greenSetting(name: string, env: NodeJS.ProcessEnv, dir: string): string | undefined {
  const file = join(dir, '.env');
  const fromFile = existsSync(file) ? parseEnv(readFileSync(file, 'utf8'))[name] : undefined;
  return env[name] || fromFile || undefined;
}
