import { request, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';

// The real engine behind the stand-in, over its unix socket: whole answers for the checks the policy
// makes, streamed forwarding for what it lets through, and a raw tunnel for hijacked exec and attach.

export interface EngineAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export class EngineUpstream {
  constructor(readonly socketPath: string) {}

  /** One call made by the stand-in itself (an inspect before an ownership check); the whole answer. */
  async call(method: string, path: string): Promise<EngineAnswer> {
    return new Promise((resolve, reject) => {
      const outgoing = request({ socketPath: this.socketPath, method, path, agent: false, headers: { Host: 'docker' } }, (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) }));
        answer.on('error', reject);
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
  }

  /**
   * Forwards a request as it streams (archive bodies both ways, logs, attach, events), with `body` in
   * place of the caller's when the policy rewrote it. The caller going away ends the engine's side.
   */
  forward(incoming: IncomingMessage, response: ServerResponse, path: string, body?: Buffer, onAnswer?: (status: number, answer: Buffer) => void): void {
    const headers = { ...incoming.headers };
    if (body) {
      delete headers['transfer-encoding'];
      headers['content-length'] = String(body.length);
    }
    const outgoing = request({ socketPath: this.socketPath, method: incoming.method, path, headers, agent: false }, (answer) => {
      answer.on('error', () => response.destroy());
      if (onAnswer) return void relayWhole(answer, response, onAnswer);
      response.writeHead(answer.statusCode ?? 502, answer.statusMessage, answer.headers);
      response.flushHeaders();
      answer.pipe(response);
    });
    outgoing.on('error', (error) => failed(response, error));
    response.on('close', () => {
      if (!response.writableFinished) outgoing.destroy();
    });
    if (body) outgoing.end(body);
    else incoming.pipe(outgoing);
  }

  /**
   * An upgrade request (hijacked exec start, attach): the request goes to the engine as it came, then
   * bytes flow both ways untouched, half-closes included (a shell session ends its stdin that way).
   */
  tunnel(incoming: IncomingMessage, client: Socket, head: Buffer): void {
    const engine = connect({ path: this.socketPath, allowHalfOpen: true });
    const lines = [`${incoming.method} ${incoming.url} HTTP/1.1`];
    for (let index = 0; index < incoming.rawHeaders.length; index += 2) lines.push(`${incoming.rawHeaders[index]}: ${incoming.rawHeaders[index + 1]}`);
    engine.write(`${lines.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) engine.write(head);
    client.pipe(engine);
    engine.pipe(client);
    const close = (): void => {
      client.destroy();
      engine.destroy();
    };
    engine.on('error', close);
    client.on('error', close);
    engine.on('close', close);
    client.on('close', close);
  }
}

/** A small answer (a create's id) read whole, shown to the policy, then relayed as it came. */
function relayWhole(answer: IncomingMessage, response: ServerResponse, onAnswer: (status: number, answer: Buffer) => void): void {
  const chunks: Buffer[] = [];
  answer.on('data', (chunk: Buffer) => chunks.push(chunk));
  answer.on('end', () => {
    const whole = Buffer.concat(chunks);
    onAnswer(answer.statusCode ?? 502, whole);
    const headers = { ...answer.headers, 'content-length': String(whole.length) };
    delete headers['transfer-encoding'];
    response.writeHead(answer.statusCode ?? 502, answer.statusMessage, headers).end(whole);
  });
}

function failed(response: ServerResponse, error: Error): void {
  if (response.headersSent) {
    response.destroy();
    return;
  }
  response.writeHead(502, { 'Content-Type': 'application/json' }).end(JSON.stringify({ message: `docker upstream error: ${error.message}` }));
}
