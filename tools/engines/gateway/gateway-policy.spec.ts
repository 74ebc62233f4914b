import { createReferences } from './create-references';
import { routeOf } from './gateway-policy';
import { labelCreateBody, PolicyViolation, scopeQuery } from './owner-labels';

const owner = { component: 'green-agent', project: 'p' };
const route = (method: string, url: string) => {
  const parsed = new URL(url, 'http://docker');
  return routeOf(method, parsed.pathname, parsed.searchParams);
};

describe("the gateway's policy", () => {
  it('lets through ping, version, info, image inspect and image pull, with or without an API version', () => {
    for (const [method, url] of [
      ['GET', '/_ping'],
      ['GET', '/v1.41/version'],
      ['GET', '/info'],
      ['GET', '/v1.41/images/ghcr.io/org/app:1/json'],
      ['POST', '/v1.41/images/create?fromImage=debian&tag=bookworm-slim'],
    ]) {
      expect(route(method, url)).toEqual({ kind: 'forward' });
    }
  });

  it('refuses image build, import, delete, list and tag, and anything else it cannot scope', () => {
    for (const [method, url] of [
      ['POST', '/v1.41/build?t=x'],
      ['POST', '/images/create?fromSrc=-'],
      ['POST', '/images/create?fromImage=x&fromSrc=-'],
      ['POST', '/images/create'],
      ['DELETE', '/v1.41/images/arvo-rca-sample:1-vul'],
      ['GET', '/images/json'],
      ['POST', '/images/x/tag?repo=y'],
      ['POST', '/images/load'],
      ['HEAD', '/_ping'],
      ['GET', '/system/df'],
      ['POST', '/commit?container=x'],
      ['POST', '/networks/n/connect'],
    ]) {
      expect(route(method, url)).toMatchObject({ kind: 'refuse' });
    }
  });

  it('scopes lists, prunes and events, and checks ownership for anything on one container, exec, network or volume', () => {
    expect(route('GET', '/v1.41/containers/json?all=1')).toEqual({ kind: 'scoped-list' });
    expect(route('GET', '/events')).toEqual({ kind: 'scoped-list' });
    expect(route('POST', '/containers/prune')).toEqual({ kind: 'scoped-list' });
    expect(route('POST', '/v1.41/containers/create?name=a')).toEqual({ kind: 'create', resource: 'containers' });
    expect(route('POST', '/containers/abc/exec')).toEqual({ kind: 'exec-create', container: 'abc' });
    expect(route('POST', '/exec/e1/start')).toEqual({ kind: 'exec', exec: 'e1' });
    for (const [method, url] of [
      ['PUT', '/containers/abc/archive?path=/workspace'],
      ['DELETE', '/containers/abc?force=true'],
      ['POST', '/containers/abc/restart?t=0'],
      ['POST', '/containers/abc/wait'],
      ['GET', '/containers/abc/logs'],
    ]) {
      expect(route(method, url)).toEqual({ kind: 'owned', resource: 'containers', id: 'abc' });
    }
  });

  it('forces the owner labels into a list filter, replacing any compose project the caller named', () => {
    const query = new URLSearchParams({ all: '1', filters: JSON.stringify({ label: ['arvo-rca.owner', 'com.docker.compose.project=other'] }) });
    const filters = JSON.parse(scopeQuery(query, owner).get('filters') ?? '');
    expect(filters.label).toEqual({
      'arvo-rca.owner': true,
      'amber.component=green-agent': true,
      'amber.project=p': true,
      'com.docker.compose.project=p': true,
    });
    expect(() => scopeQuery(new URLSearchParams({ filters: '[1]' }), owner)).toThrow(PolicyViolation);
  });

  it('labels a create body as the caller owns it, keeping its own labels', () => {
    const body = JSON.parse(labelCreateBody(Buffer.from(JSON.stringify({ Image: 'x', Labels: { mine: '1' } })), owner).toString());
    expect(body.Labels).toEqual({ mine: '1', 'amber.component': 'green-agent', 'amber.project': 'p', 'com.docker.compose.project': 'p' });
  });

  it('finds what a container create refers to, and nothing for a network-less container with no mounts', () => {
    expect(createReferences({ Image: 'x', HostConfig: { NetworkMode: 'none', CapDrop: ['ALL'] } })).toEqual([]);
    expect(
      createReferences({
        HostConfig: { NetworkMode: 'container:c1', Binds: ['vol:/data', '/host:/h'], VolumesFrom: ['c2:ro'], PidMode: 'container:c3' },
        NetworkingConfig: { EndpointsConfig: { net1: {}, bridge: {} } },
      }).map((reference) => `${reference.resource}/${reference.id}`),
    ).toEqual(['containers/c1', 'volumes/vol', 'containers/c2', 'containers/c3', 'networks/net1']);
  });
});
