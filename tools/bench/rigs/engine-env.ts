import { readFileSync } from 'node:fs';

/** `NAME=value` lines, as the engine scripts (tools/engines/*-engine.sh) write `<state>/env`. */
export function readEnvFile(path: string): NodeJS.ProcessEnv {
  return Object.fromEntries(
    readFileSync(path, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}
