// The documented policy of AgentBeats' Docker gateway (RDI-Foundation/amber, runtime/docker-gateway:
// its README and the `handle` function of src/lib.rs), as pure functions: which route a request takes.

export type Resource = 'containers' | 'networks' | 'volumes';

/** What the gateway does with one request. */
export type Route =
  /** Forwarded as it is: ping, version, info, image inspect, image pull. */
  | { kind: 'forward' }
  /** A list, prune or events call: forwarded with the owner's label filters forced in. */
  | { kind: 'scoped-list' }
  /** A create: forwarded with the owner's labels put in its body (after its references are checked). */
  | { kind: 'create'; resource: Resource }
  /** `POST /containers/{id}/exec`: the container must be owned; the new exec id is remembered. */
  | { kind: 'exec-create'; container: string }
  /** `/exec/{id}/...`: the exec's container must be owned. */
  | { kind: 'exec'; exec: string }
  /** Anything under `/containers/{id}`, `/networks/{id}`, `/volumes/{name}`: the resource must be owned. */
  | { kind: 'owned'; resource: Resource; id: string }
  | { kind: 'refuse'; reason: string };

const VERSION_SEGMENT = /^v\d+\.\d+$/;

/** The path's segments without a leading API version (`/v1.41/containers/json` → containers, json). */
export function pathSegments(path: string): string[] {
  const segments = path.split('/').filter((segment) => segment !== '');
  return VERSION_SEGMENT.test(segments[0] ?? '') ? segments.slice(1) : segments;
}

/** The API version prefix of a path (`/v1.41`), or '' when it has none. */
export function versionPrefix(path: string): string {
  const first = path.split('/').filter((segment) => segment !== '')[0] ?? '';
  return VERSION_SEGMENT.test(first) ? `/${first}` : '';
}

export function routeOf(method: string, path: string, query: URLSearchParams): Route {
  const segs = pathSegments(path);
  const [first, second, third] = segs;
  const get = method === 'GET';
  const post = method === 'POST';
  if (get && segs.length === 1 && (first === '_ping' || first === 'version' || first === 'info')) return { kind: 'forward' };
  // Image names may hold slashes (ghcr.io/org/app:tag): `/images/{name}/json` by prefix and suffix.
  if (get && segs.length >= 3 && first === 'images' && segs[segs.length - 1] === 'json') return { kind: 'forward' };
  if (post && segs.length === 2 && first === 'images' && second === 'create') {
    const pull = query.has('fromImage') && !query.has('fromSrc');
    return pull ? { kind: 'forward' } : { kind: 'refuse', reason: 'only image pull (fromImage) is allowed; build/import is blocked' };
  }
  if (isScopedList(method, segs)) return { kind: 'scoped-list' };
  if (post && segs.length === 2 && second === 'create' && isResource(first)) return { kind: 'create', resource: first };
  if (post && segs.length === 3 && first === 'containers' && third === 'exec') return { kind: 'exec-create', container: second };
  if (segs.length >= 2 && first === 'exec') return { kind: 'exec', exec: second };
  if (segs.length >= 2 && first === 'containers' && !['create', 'json', 'prune'].includes(second)) return { kind: 'owned', resource: 'containers', id: second };
  if (segs.length >= 2 && (first === 'networks' || first === 'volumes') && !['create', 'prune'].includes(second)) {
    if (first === 'networks' && (third === 'connect' || third === 'disconnect')) {
      return { kind: 'refuse', reason: 'network connect/disconnect is not allowed by gateway policy' };
    }
    return { kind: 'owned', resource: first, id: second };
  }
  return { kind: 'refuse', reason: `endpoint ${method} ${path} is not allowed by gateway policy` };
}

function isResource(value: string | undefined): value is Resource {
  return value === 'containers' || value === 'networks' || value === 'volumes';
}

function isScopedList(method: string, segs: string[]): boolean {
  const joined = segs.join('/');
  if (method === 'GET') return ['containers/json', 'events', 'networks', 'volumes'].includes(joined);
  if (method === 'POST') return ['containers/prune', 'networks/prune', 'volumes/prune'].includes(joined);
  return false;
}
