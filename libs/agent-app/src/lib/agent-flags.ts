// The AgentBeats convention: every agent takes --host, --port and --card-url. Flags win over the
// environment, so they are folded into it before the configuration is validated.
const FLAG_TO_ENV: Record<string, string> = { '--host': 'HOST', '--port': 'PORT', '--card-url': 'CARD_URL' };

const AGENT_USAGE = 'usage: <agent> [--host HOST] [--port PORT] [--card-url URL]';

export function parseAgentFlags(argv: string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    const name = FLAG_TO_ENV[flag];
    if (!name) throw new Error(`unknown argument '${argv[i]}'\n${AGENT_USAGE}`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value\n${AGENT_USAGE}`);
    env[name] = value;
  }
  return env;
}
