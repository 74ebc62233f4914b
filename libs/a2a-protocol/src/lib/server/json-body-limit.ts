import { Inject, Injectable } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyAdapter } from '@nestjs/platform-fastify';
import { A2A_SERVER_SETTINGS, type A2aServerSettings } from './a2a-server.tokens';

/**
 * Puts `A2A_MAX_BODY_BYTES` on the app's JSON parser, whichever way the app was booted. It is built
 * with the module's providers, before Nest registers its own JSON parser at init (which it then
 * leaves out). Fastify refuses a body over the limit by its Content-Length before reading it, or
 * stops reading as soon as it passes the limit, and never parses it.
 */
@Injectable()
export class JsonBodyLimit {
  constructor(adapterHost: HttpAdapterHost<FastifyAdapter>, @Inject(A2A_SERVER_SETTINGS) settings: A2aServerSettings) {
    adapterHost.httpAdapter.useBodyParser('application/json', false, { bodyLimit: settings.maxBodyBytes });
  }
}
