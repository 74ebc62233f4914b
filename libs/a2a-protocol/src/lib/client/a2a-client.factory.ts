import { ClientFactory, DefaultAgentCardResolver, JsonRpcTransportFactory } from '@a2a-js/sdk/client';
import { withTrailingSlash } from '../agent-card';
import { A2aPeer } from './a2a-peer';
import { createHttpFetch } from './http-fetch';
import { A2aPeerError } from './peer-error';

interface A2aClientOptions {
  /** The shared secret sent as `Authorization: Bearer <token>` on every call (`A2A_TOKEN`). */
  token?: string;
  /** The most of a peer's reply that is read (`A2A_MAX_BODY_BYTES`, default 8 MiB), event streams aside; for the default fetch. */
  maxBodyBytes?: number;
  /** The HTTP client underneath; by default one without header or body timeouts, bounding replies by `maxBodyBytes`. */
  fetch?: typeof fetch;
}

/**
 * Makes clients for peer agents: the SDK's ClientFactory with its v0.3 compatibility layer on, so a
 * peer is spoken to in the version its card announces, over a fetch that leaves deadlines to each call.
 * One {@link A2aPeer} per base URL, whichever way the URL ends.
 */
export class A2aClientFactory {
  private readonly fetch: typeof fetch;
  private readonly clients: ClientFactory;
  private readonly peers = new Map<string, A2aPeer>();

  constructor(options: A2aClientOptions = {}) {
    this.fetch = authorizedFetch(options.fetch ?? createHttpFetch({ maxBodyBytes: options.maxBodyBytes }), options.token);
    const legacyCompat = { enabled: true };
    this.clients = new ClientFactory({
      transports: [new JsonRpcTransportFactory({ fetchImpl: this.fetch, legacyCompat })],
      preferredTransports: ['JSONRPC'],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl: this.fetch, legacyCompat }),
    });
  }

  peer(url: string): A2aPeer {
    const key = withTrailingSlash(url);
    let peer = this.peers.get(key);
    if (!peer) {
      peer = new A2aPeer(key, this.clients, this.fetch);
      this.peers.set(key, peer);
    }
    return peer;
  }
}

// Adds the bearer token, and turns the peer's refusal of it into an error that says so.
function authorizedFetch(base: typeof fetch, token: string | undefined): typeof fetch {
  return async (input, init) => {
    const headers = new Headers(init?.headers);
    if (token && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    const response = await base(input, { ...init, headers });
    if (response.status === 401 || response.status === 403) {
      await response.body?.cancel();
      const what = token ? 'refused the bearer token (A2A_TOKEN differs)' : 'requires a bearer token (set A2A_TOKEN)';
      throw new A2aPeerError('PEER_UNAUTHORIZED', `A2A peer at ${String(input)} ${what}: HTTP ${response.status}`);
    }
    return response;
  };
}
