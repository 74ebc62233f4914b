export interface ViewerOptions {
  host: string;
  port: number;
  /** Run directories, or folders of run directories; LOG_DIR (default ./logs) when none is named. */
  dirs: string[];
}

export const VIEWER_USAGE = 'usage: npm run view -- [--host 127.0.0.1] [--port 9030] [run dir or log dir ...]';

/** The command line, with HOST, PORT and LOG_DIR from the environment as defaults (the container sets them). */
export function parseViewerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ViewerOptions {
  const options: ViewerOptions = { host: env['HOST'] || '127.0.0.1', port: Number(env['PORT'] || 9030), dirs: [] };
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === '--host' || arg === '--port') {
      const value = argv[++index];
      if (value === undefined) throw new Error(`${arg} needs a value\n${VIEWER_USAGE}`);
      if (arg === '--host') options.host = value;
      else options.port = Number(value);
    } else if (arg.startsWith('--')) {
      throw new Error(`unknown option ${arg}\n${VIEWER_USAGE}`);
    } else {
      options.dirs.push(arg);
    }
  }
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535)
    throw new Error(`the port must be a number from 0 to 65535\n${VIEWER_USAGE}`);
  if (options.dirs.length === 0) options.dirs.push(env['LOG_DIR'] || 'logs');
  return options;
}
