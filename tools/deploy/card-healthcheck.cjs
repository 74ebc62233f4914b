// The HEALTHCHECK of the agent images: healthy when the agent serves its card. The address is the
// one the agent was started with (AgentBeats passes --host and --port), read from its command line,
// else HOST/PORT from the environment, else the port given as this script's argument.
const { readdirSync, readFileSync } = require('node:fs');

function agentArguments() {
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    let argv;
    try {
      argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    } catch {
      continue; // the process ended meanwhile
    }
    const main = argv.findIndex((arg) => arg.endsWith('/main.js') || arg === 'main.js');
    if (main >= 0) return argv.slice(main + 1).filter(Boolean);
  }
  return [];
}

function flag(args, name) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1];
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1);
  }
  return undefined;
}

const args = agentArguments();
const port = flag(args, '--port') ?? process.env.PORT ?? process.argv[2];
const bound = flag(args, '--host') ?? process.env.HOST ?? '127.0.0.1';
const host = bound === '0.0.0.0' || bound === '::' ? '127.0.0.1' : bound.includes(':') ? `[${bound}]` : bound;
const url = `http://${host}:${port}/.well-known/agent-card.json`;

fetch(url, { signal: AbortSignal.timeout(4000) }).then(
  (response) => {
    if (!response.ok) console.error(`${url}: HTTP ${response.status}`);
    process.exit(response.ok ? 0 : 1);
  },
  (error) => {
    console.error(`${url}: ${error.cause?.code ?? error.message}`);
    process.exit(1);
  },
);
