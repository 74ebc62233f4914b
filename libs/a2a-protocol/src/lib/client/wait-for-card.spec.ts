import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForAgentCard } from './wait-for-card';

function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` })));
}

describe('waitForAgentCard', () => {
  it('keeps asking until the card is served, and returns it', async () => {
    let asked = 0;
    const { server, url } = await listen((request, response) => {
      asked += 1;
      if (asked < 3) return void response.writeHead(503).end();
      response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ name: 'agent', path: request.url }));
    });
    try {
      expect(await waitForAgentCard(url, { intervalMs: 10 })).toEqual({ name: 'agent', path: '/.well-known/agent-card.json' });
      expect(asked).toBe(3);
    } finally {
      server.close();
    }
  });

  it('stops at once when the agent is gone, saying why', async () => {
    await expect(waitForAgentCard('http://127.0.0.1:9/', { gone: () => 'exited with code 1' })).rejects.toThrow(
      'the agent at http://127.0.0.1:9/ will not serve its card: exited with code 1',
    );
  });

  it('gives up at its deadline', async () => {
    await expect(waitForAgentCard('http://127.0.0.1:9/', { timeoutMs: 300, intervalMs: 50 })).rejects.toThrow(
      'no agent card at http://127.0.0.1:9/ within 0.3s',
    );
  });
});
