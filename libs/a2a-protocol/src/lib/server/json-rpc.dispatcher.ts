import { Inject, Injectable, Logger } from '@nestjs/common';
import { A2A_VERSION_HEADER, Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
import { LEGACY_HTTP_EXTENSION_HEADER } from '@a2a-js/sdk/compat/v0_3';
import { LegacyJsonRpcTransportHandler } from '@a2a-js/sdk/compat/v0_3/server';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import {
  DefaultRequestHandler,
  defaultServerCallContextBuilder,
  JsonRpcTransportHandler,
  UnauthenticatedUser,
  validateVersion,
  type RequestHeaders,
} from '@a2a-js/sdk/server';
import { answerBatch, invalidRequest, type JsonRpcReply } from './json-rpc-batch';
import { withMethodFirst } from './json-rpc-methods';
import { isLegacyVersion } from './legacy-agent-card';
import { StreamPace } from './stream-pace';

interface JsonRpcErrorBody {
  code: number;
  message: string;
}

interface JsonRpcStream {
  kind: 'stream';
  events: AsyncIterable<unknown>;
  headers: Record<string, string>;
  /** How far the requester has taken the events (the executor's TaskEvents see it too). */
  pace?: StreamPace;
}

/** What to send back: one JSON-RPC envelope, or a stream of them (SSE) with the envelope of a failure mid-way. */
export type JsonRpcOutcome = JsonRpcReply | (JsonRpcStream & { errorEvent: (error: unknown) => unknown });

/** Why a body of another media type is refused (here, and where Fastify refuses one before the endpoint). */
export const NOT_JSON = 'the body must be sent as application/json';

const STREAMING_METHODS = new Set(['message/stream', 'tasks/resubscribe', 'SendStreamingMessage', 'SubscribeToTask']);

/**
 * Routes a JSON-RPC call to the SDK's transport handler for the protocol version the caller speaks:
 * v0.3 (no `A2A-Version`, as AgentBeats and Python clients send) or v1.0; another version is refused
 * with the specification's VersionNotSupportedError. The same request handler, task store and executor
 * serve both. Mirrors the SDK's Express JSON-RPC handler, but every JSON-RPC error goes out with HTTP
 * 200: the Python 0.3 client raises on an HTTP error status before it reads the body, and would never
 * see the error. A batch (an array) is answered as JSON-RPC 2.0 says.
 */
@Injectable()
export class JsonRpcDispatcher {
  private readonly logger = new Logger('A2A');
  private readonly v1: JsonRpcTransportHandler;
  private readonly legacy: LegacyJsonRpcTransportHandler;

  constructor(@Inject(DefaultRequestHandler) private readonly requestHandler: DefaultRequestHandler) {
    this.v1 = new JsonRpcTransportHandler(requestHandler);
    this.legacy = new LegacyJsonRpcTransportHandler(requestHandler);
  }

  async dispatch(body: unknown, headers: RequestHeaders): Promise<JsonRpcOutcome> {
    // Fastify hands a text/plain body over as a string.
    if (!headerValue(headers, 'content-type')?.toLowerCase().startsWith('application/json')) return invalidRequest(NOT_JSON);
    if (!Array.isArray(body)) return this.dispatchOne(body, headers);
    return answerBatch(
      body,
      (item) => isRequestObject(item) && isStreamingCall(item),
      async (item) => {
        const outcome = await this.dispatchOne(item, headers);
        return outcome.kind === 'reply'
          ? outcome
          : invalidRequest('a streaming answer cannot be part of a batch', isRequestObject(item) ? requestId(item) : null);
      },
    );
  }

  /** One call; a streaming call answers in SSE. */
  private async dispatchOne(body: unknown, headers: RequestHeaders): Promise<JsonRpcOutcome> {
    // The SDK's handlers expect an object and fail with an internal error on `null`.
    if (!isRequestObject(body)) return invalidRequest('a request must be a JSON-RPC request object');
    const version = headerValue(headers, A2A_VERSION_HEADER);
    const legacy = isLegacyVersion(version);
    const id = requestId(body);
    const toError = (error: unknown): JsonRpcErrorBody =>
      legacy ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError(error) : JsonRpcTransportHandler.mapToJSONRPCError(error);
    const outcome = await this.handle(body, headers, legacy, version).catch((error: unknown): JsonRpcReply => {
      const mapped = toError(error);
      if (mapped.code === A2A_ERROR_CODE.INTERNAL_ERROR) this.logger.error(`JSON-RPC call failed: ${describe(error)}`);
      return { kind: 'reply', status: 200, body: { jsonrpc: '2.0', id, error: mapped }, headers: {} };
    });
    if (outcome.kind === 'stream') {
      return { ...outcome, errorEvent: (error) => this.streamError(id, toError(error), error) };
    }
    // A streaming call answers in SSE even when it fails up front: SSE clients expect that content type.
    if (isStreamingCall(body))
      return { kind: 'stream', events: once(outcome.body), headers: outcome.headers, errorEvent: (error) => ({ jsonrpc: '2.0', id, error: toError(error) }) };
    return outcome;
  }

  private async handle(
    body: Record<string, unknown>,
    headers: RequestHeaders,
    legacy: boolean,
    version: string | undefined,
  ): Promise<JsonRpcReply | JsonRpcStream> {
    const extensionsHeader = legacy
      ? (headerValue(headers, LEGACY_HTTP_EXTENSION_HEADER) ?? headerValue(headers, HTTP_EXTENSION_HEADER))
      : headerValue(headers, HTTP_EXTENSION_HEADER);
    const context = defaultServerCallContextBuilder({
      extensions: Extensions.parseServiceParameter(extensionsHeader),
      user: new UnauthenticatedUser(),
      headers,
      requestedVersion: legacy ? '0.3' : version,
    });
    validateVersion(context.requestedVersion, await this.requestHandler.getAgentCard(), 'JSONRPC');
    const pace = isStreamingCall(body) ? StreamPace.attach(context) : undefined;
    const call = withMethodFirst(body, legacy);
    const result = legacy ? await this.legacy.handle(call, context) : await this.v1.handle(call, context);
    const activated = context.activatedExtensions;
    const responseHeaders: Record<string, string> = activated
      ? { [legacy ? LEGACY_HTTP_EXTENSION_HEADER : HTTP_EXTENSION_HEADER]: [...activated].join(',') }
      : {};
    if (isAsyncIterable(result)) return { kind: 'stream', events: result, headers: responseHeaders, pace };
    return { kind: 'reply', status: 200, body: result, headers: responseHeaders };
  }

  private streamError(id: unknown, mapped: JsonRpcErrorBody, error: unknown): unknown {
    this.logger.error(`JSON-RPC stream failed: ${describe(error)}`);
    return { jsonrpc: '2.0', id, error: mapped };
  }
}

function isRequestObject(body: unknown): body is Record<string, unknown> {
  return typeof body === 'object' && body !== null && !Array.isArray(body);
}

function headerValue(headers: RequestHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return (Array.isArray(value) ? value[0] : value) || undefined;
}

function requestId(body: Record<string, unknown>): unknown {
  return 'id' in body ? body['id'] : null;
}

function isStreamingCall(body: Record<string, unknown>): boolean {
  return STREAMING_METHODS.has(String(body['method']));
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

async function* once(value: unknown): AsyncGenerator<unknown> {
  yield value;
}

function describe(error: unknown): string {
  return error instanceof Error ? (error.stack ?? error.message) : String(error);
}
