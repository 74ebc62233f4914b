// A test stand-in for AgentBeats' Docker gateway (RDI-Foundation/amber, runtime/docker-gateway). It is
// NOT the gateway: it enforces the gateway's documented default-deny policy (its README and the policy
// code of src/lib.rs) in front of the real engine, so that the product can be run as AgentBeats runs it.
// Allowed: ping, version, info, image inspect, image pull; create of containers, networks and volumes
// (ownership labels put in); anything on a container, network or volume it created (start, exec and its
// hijacked stream, archive PUT and GET, attach, inspect, wait, logs, restart, kill, remove ...); lists,
// prunes and events with its ownership label filters forced in. Refused with 403, and recorded: image
// build, import and delete, network connect and disconnect, anything on what it did not create, and any
// other call it cannot scope.
//
//   tsx tools/engines/docker-gateway-stand-in.ts --listen unix:<path>|tcp:<port> --state <dir>
//       [--engine /var/run/docker.sock] [--refuse 'DELETE /containers/'] ...
//
// In <dir>: `refused.jsonl` (one line per refused call) and `ready` once it listens. SIGTERM stops it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DockerGatewayStandIn, type ExtraRefusal } from './gateway/docker-gateway';

interface StandInArgs {
  listen: { path: string } | { port: number; host: string };
  state: string;
  engine: string;
  refusals: ExtraRefusal[];
}

function parseArgs(argv: string[]): StandInArgs {
  const values = new Map<string, string[]>();
  for (let index = 0; index < argv.length; index += 2) {
    const [flag, value] = [argv[index], argv[index + 1]];
    if (!flag?.startsWith('--') || value === undefined)
      throw new Error(`usage: --listen unix:<path>|tcp:<port> --state <dir> [--engine <socket>] [--refuse '<METHOD> <path prefix>']`);
    values.set(flag.slice(2), [...(values.get(flag.slice(2)) ?? []), value]);
  }
  const listen = values.get('listen')?.[0] ?? '';
  const state = values.get('state')?.[0];
  if (!state || !/^(unix|tcp):./.test(listen)) throw new Error('--listen unix:<path>|tcp:<port> and --state <dir> are required');
  const refusals = (values.get('refuse') ?? []).map((rule) => {
    const [method, pathPrefix] = rule.trim().split(/\s+/);
    if (!method || !pathPrefix) throw new Error(`--refuse takes '<METHOD> <path prefix>', not ${JSON.stringify(rule)}`);
    return { method: method.toUpperCase(), pathPrefix };
  });
  return {
    listen: listen.startsWith('unix:') ? { path: listen.slice(5) } : { port: Number(listen.slice(4)), host: '127.0.0.1' },
    state,
    engine: values.get('engine')?.[0] ?? '/var/run/docker.sock',
    refusals,
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const refusedLog = join(args.state, 'refused.jsonl');
  writeFileSync(refusedLog, '');
  const gateway = new DockerGatewayStandIn({
    engineSocket: args.engine,
    owner: { component: 'green-agent', project: 'arvo-rca-gateway' },
    refusedLog,
    extraRefusals: args.refusals,
    echo: true,
  });
  await gateway.listen(args.listen);
  const where = 'path' in args.listen ? `unix://${args.listen.path}` : `tcp://127.0.0.1:${gateway.port}`;
  writeFileSync(join(args.state, 'ready'), `${where}\n`);
  process.stderr.write(`docker gateway stand-in: listening on ${where}, engine ${args.engine}\n`);
  const stop = (): void => void gateway.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`docker gateway stand-in: ${error.message}\n`);
  process.exit(1);
});
