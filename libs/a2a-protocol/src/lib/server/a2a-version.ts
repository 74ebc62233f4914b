import { A2A_VERSION_HEADER } from '@a2a-js/sdk';

/**
 * The A2A version a request asks for: the `A2A-Version` header, else the `A2A-Version` query parameter
 * (the specification's service parameters travel as either on HTTP). None means 0.3, as the
 * specification says of a request that names no version (AgentBeats and Python 0.3 clients name none).
 */
export function requestedVersion(headers: Record<string, string | string[] | undefined>, query: unknown): string | undefined {
  return firstValue(headers[A2A_VERSION_HEADER.toLowerCase()]) ?? firstValue(queryValue(query));
}

/** The request's headers with the version it asks for as the header, wherever it was given. */
export function withVersionHeader<H extends Record<string, string | string[] | undefined>>(headers: H, query: unknown): H {
  const version = requestedVersion(headers, query);
  return version === undefined ? headers : { ...headers, [A2A_VERSION_HEADER.toLowerCase()]: version };
}

function queryValue(query: unknown): string | string[] | undefined {
  if (typeof query !== 'object' || query === null) return undefined;
  const value: unknown = (query as Record<string, unknown>)[A2A_VERSION_HEADER];
  return typeof value === 'string' || Array.isArray(value) ? (value as string[] | string) : undefined;
}

function firstValue(value: string | string[] | undefined): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return first?.trim() || undefined;
}
