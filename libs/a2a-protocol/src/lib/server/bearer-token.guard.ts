import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { A2A_SERVER_SETTINGS, type A2aServerSettings } from './a2a-server.tokens';

/** When the deployment sets `A2A_TOKEN`, JSON-RPC calls must carry `Authorization: Bearer <token>`. */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  constructor(@Inject(A2A_SERVER_SETTINGS) private readonly settings: A2aServerSettings) {}

  canActivate(context: ExecutionContext): boolean {
    const expected = this.settings.token;
    if (!expected) return true;
    const http = context.switchToHttp();
    if (bearerMatches(http.getRequest<FastifyRequest>().headers.authorization, expected)) return true;
    http.getResponse<FastifyReply>().header('WWW-Authenticate', 'Bearer');
    throw new UnauthorizedException('this agent requires Authorization: Bearer <A2A_TOKEN>');
  }
}

function bearerMatches(header: string | undefined, expected: string): boolean {
  const [scheme, token] = (header ?? '').trim().split(/\s+/, 2);
  if (scheme?.toLowerCase() !== 'bearer' || !token) return false;
  const given = Buffer.from(token);
  const wanted = Buffer.from(expected);
  return given.length === wanted.length && timingSafeEqual(given, wanted);
}
