import { createHash } from 'node:crypto';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AGENT_CARD_PATH } from './agent-card';
import { requestedVersion } from './server/a2a-version';
import { AGENT_CARD } from './server/a2a-server.tokens';
import { isLegacyVersion, toLegacyAgentCard } from './server/legacy-agent-card';

// A card changes only when its agent restarts: peers may keep it a few minutes, and ask again cheaply by its ETag.
const CACHE_CONTROL = 'public, max-age=300';

interface ServedCard {
  body: string;
  etag: string;
}

/**
 * Serves the card at the well-known path: in the v0.3 shape unless the caller asks for A2A 1.0 with
 * an `A2A-Version` header or query parameter (AgentBeats and Python clients send none). The card is
 * public even when the JSON-RPC endpoint requires a token: it declares the scheme. Each shape has its
 * ETag; a caller that names it in If-None-Match gets 304 and no body.
 */
@Controller()
export class AgentCardController {
  private readonly legacy: ServedCard;
  private readonly v1: ServedCard;

  constructor(@Inject(AGENT_CARD) card: AgentCard) {
    this.legacy = served(toLegacyAgentCard(card, { embedV1Interfaces: true }));
    this.v1 = served(AgentCard.toJSON(card));
  }

  @Get(AGENT_CARD_PATH)
  getCard(@Req() request: FastifyRequest, @Res() reply: FastifyReply): void {
    const card = isLegacyVersion(requestedVersion(request.headers, request.query)) ? this.legacy : this.v1;
    void reply.header('Vary', A2A_VERSION_HEADER).header('Cache-Control', CACHE_CONTROL).header('ETag', card.etag);
    if (matches(request.headers['if-none-match'], card.etag)) return void reply.status(304).send();
    void reply.type('application/json; charset=utf-8').send(card.body);
  }
}

function served(card: unknown): ServedCard {
  const body = JSON.stringify(card);
  return { body, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"` };
}

/** Whether If-None-Match names this ETag (weakly compared, as RFC 9110 wants for it) or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}
