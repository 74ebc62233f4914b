// How the gateway marks what a caller creates and scopes what it lists: ownership labels put into every
// create body and forced into every list filter, as the gateway's src/lib.rs does.

export const COMPONENT_LABEL = 'amber.component';
export const PROJECT_LABEL = 'amber.project';
export const COMPOSE_PROJECT_LABEL = 'com.docker.compose.project';

/** The one caller the stand-in serves (the gateway tells callers apart by their address). */
export interface Owner {
  component: string;
  project: string;
}

export class PolicyViolation extends Error {
  constructor(
    readonly status: 400 | 403,
    message: string,
  ) {
    super(message);
    this.name = 'PolicyViolation';
  }
}

export function ownerLabels(owner: Owner): Record<string, string> {
  return { [COMPONENT_LABEL]: owner.component, [PROJECT_LABEL]: owner.project, [COMPOSE_PROJECT_LABEL]: owner.project };
}

export function isOwnedBy(labels: Record<string, string> | null | undefined, owner: Owner): boolean {
  return labels?.[COMPONENT_LABEL] === owner.component && labels?.[PROJECT_LABEL] === owner.project;
}

/** The query with the owner's labels forced into `filters.label`, whatever the caller asked for. */
export function scopeQuery(query: URLSearchParams, owner: Owner): URLSearchParams {
  const scoped = new URLSearchParams(query);
  const filters = parseJson(query.get('filters') ?? '{}', 'filters must be valid JSON');
  if (!isObject(filters)) throw new PolicyViolation(400, 'filters must be a JSON object');
  const labels = labelFilterMap(filters['label']);
  for (const key of Object.keys(labels)) if (key.startsWith(`${COMPOSE_PROJECT_LABEL}=`)) delete labels[key];
  for (const [key, value] of Object.entries(ownerLabels(owner))) labels[`${key}=${value}`] = true;
  scoped.set('filters', JSON.stringify({ ...filters, label: labels }));
  return scoped;
}

/** A create body with the owner's labels set in `Labels`. */
export function labelCreateBody(body: Buffer, owner: Owner): Buffer {
  const value = parseJson(body.toString('utf8'), 'invalid JSON body');
  if (!isObject(value)) throw new PolicyViolation(400, 'expected JSON object body');
  const labels = value['Labels'] ?? {};
  if (!isObject(labels)) throw new PolicyViolation(400, 'Labels must be a JSON object');
  return Buffer.from(JSON.stringify({ ...value, Labels: { ...labels, ...ownerLabels(owner) } }));
}

function labelFilterMap(value: unknown): Record<string, boolean> {
  if (value === undefined || value === null) return {};
  if (typeof value === 'string') return { [value]: true };
  if (Array.isArray(value)) return Object.fromEntries(value.filter((item): item is string => typeof item === 'string').map((item) => [item, true]));
  if (!isObject(value)) throw new PolicyViolation(400, 'filters.label must be an array, object, string, or null');
  const map: Record<string, boolean> = {};
  for (const [key, enabled] of Object.entries(value)) {
    if (typeof enabled !== 'boolean') throw new PolicyViolation(400, `filters.label[${JSON.stringify(key)}] must be a boolean`);
    map[key] = enabled;
  }
  return map;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new PolicyViolation(400, `${what}: ${(error as Error).message}`);
  }
}
