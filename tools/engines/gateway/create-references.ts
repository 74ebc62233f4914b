import { isObject } from './owner-labels';
import type { Resource } from './gateway-policy';

// A container create may name other containers, networks and volumes (network mode, binds, mounts,
// volumes-from, links, pid and ipc modes, endpoints): the gateway lets it through only if the caller
// owns each of them.

const BUILTIN_NETWORKS = ['default', 'bridge', 'host', 'none', 'private'];

export interface Reference {
  resource: Resource;
  id: string;
}

export function createReferences(body: unknown): Reference[] {
  if (!isObject(body)) return [];
  const found = new Map<string, Reference>();
  const add = (resource: Resource, id: string | undefined): void => {
    const trimmed = id?.trim();
    if (trimmed) found.set(`${resource}/${trimmed}`, { resource, id: trimmed });
  };
  const host = isObject(body['HostConfig']) ? body['HostConfig'] : {};
  const networkMode = stringOf(host['NetworkMode']).trim();
  if (networkMode && !BUILTIN_NETWORKS.includes(networkMode.toLowerCase())) {
    const container = containerOfMode(networkMode);
    if (container) add('containers', container);
    else add('networks', networkMode);
  }
  for (const bind of stringsOf(host['Binds'])) add('volumes', namedVolumeOf(bind));
  for (const mount of arrayOf(host['Mounts'])) {
    if (isObject(mount) && stringOf(mount['Type']).toLowerCase() === 'volume') add('volumes', stringOf(mount['Source']));
  }
  for (const value of [...stringsOf(host['VolumesFrom']), ...stringsOf(host['Links'])]) add('containers', value.split(':')[0]);
  for (const mode of [host['PidMode'], host['IpcMode']]) add('containers', containerOfMode(stringOf(mode)));
  const networking = isObject(body['NetworkingConfig']) ? body['NetworkingConfig'] : {};
  const endpoints = isObject(networking['EndpointsConfig']) ? networking['EndpointsConfig'] : {};
  for (const network of Object.keys(endpoints)) {
    if (!BUILTIN_NETWORKS.includes(network.trim().toLowerCase()) || network.trim().toLowerCase() === 'none') add('networks', network);
  }
  return [...found.values()];
}

function containerOfMode(mode: string): string | undefined {
  return mode.trim().startsWith('container:') ? mode.trim().slice('container:'.length) : undefined;
}

/** `name:/path` names a volume; `/host/path:/path` or `./x:/path` a bind of host files. */
function namedVolumeOf(bind: string): string | undefined {
  const source = bind.split(':')[0]?.trim() ?? '';
  return source && !source.includes('/') && source !== '.' && source !== '..' ? source : undefined;
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

function stringsOf(value: unknown): string[] {
  return arrayOf(value).filter((item): item is string => typeof item === 'string');
}
