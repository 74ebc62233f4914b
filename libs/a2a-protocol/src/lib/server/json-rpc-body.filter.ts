import type { IncomingMessage } from 'node:http';
import { Catch, HttpException, Inject, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { A2A_ERROR_CODE } from '@a2a-js/sdk/errors';
import type { FastifyReply } from 'fastify';
import { A2A_SERVER_SETTINGS, type A2aServerSettings } from './a2a-server.tokens';
import { NOT_JSON } from './json-rpc.dispatcher';

// How long a refused body may go on arriving (read and dropped, no memory) before the connection is cut.
const LINGER_MS = 5_000;

interface JsonRpcError {
  code: number;
  message: string;
}

/**
 * A request body Fastify refused before the endpoint saw it (too large, not JSON, empty) is answered
 * with a JSON-RPC error and HTTP 200, as every JSON-RPC error here, so that a JSON-RPC client reads why
 * (the Python 0.3 client raises on an HTTP error status before it reads the body); every other error is
 * Nest's as usual.
 */
@Catch(HttpException)
export class JsonRpcBodyFilter extends BaseExceptionFilter {
  constructor(@Inject(A2A_SERVER_SETTINGS) private readonly settings: A2aServerSettings) {
    super();
  }

  override catch(exception: HttpException, host: ArgumentsHost): void {
    const error = bodyError(exception.cause, this.settings.maxBodyBytes);
    if (!error) return super.catch(exception, host);
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    // Fastify would close the connection while the client may still be sending the body: the reset
    // that follows can reach the client before the answer does, and the client sees no reason.
    reply.removeHeader('connection');
    dropRestOfBody(reply.request.raw);
    void reply.status(200).send({ jsonrpc: '2.0', id: null, error });
  }
}

/** Reads what is left of a refused body off the wire and drops it, for at most LINGER_MS; then cuts the connection. */
function dropRestOfBody(incoming: IncomingMessage): void {
  if (incoming.complete) return;
  const cut = setTimeout(() => incoming.socket.destroy(), LINGER_MS);
  incoming.once('end', () => clearTimeout(cut)).once('close', () => clearTimeout(cut));
  incoming.resume();
}

function bodyError(cause: unknown, maxBodyBytes: number): JsonRpcError | undefined {
  switch ((cause as { code?: unknown } | undefined)?.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        code: A2A_ERROR_CODE.INVALID_REQUEST,
        message: `Invalid Request: the body is larger than this agent's limit of ${maxBodyBytes} bytes (A2A_MAX_BODY_BYTES)`,
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { code: A2A_ERROR_CODE.INVALID_REQUEST, message: 'Invalid Request: the body is empty' };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { code: A2A_ERROR_CODE.INVALID_REQUEST, message: `Invalid Request: ${NOT_JSON}` };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { code: A2A_ERROR_CODE.PARSE_ERROR, message: 'Parse error: the body is not valid JSON' };
    default:
      return undefined;
  }
}
