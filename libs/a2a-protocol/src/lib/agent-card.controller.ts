import { Controller, Get, Header, Headers, Inject } from '@nestjs/common';
import { A2A_VERSION_HEADER, AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD_PATH } from './agent-card';
import { AGENT_CARD } from './server/a2a-server.tokens';
import { isLegacyVersion, toLegacyAgentCard } from './server/legacy-agent-card';

/**
 * Serves the card at the well-known path: in the v0.3 shape unless the caller asks for A2A 1.0 with
 * an `A2A-Version` header (AgentBeats and Python clients send none). The card is public even when
 * the JSON-RPC endpoint requires a token: it declares the scheme.
 */
@Controller()
export class AgentCardController {
  constructor(@Inject(AGENT_CARD) private readonly card: AgentCard) {}

  @Get(AGENT_CARD_PATH)
  @Header('Vary', A2A_VERSION_HEADER)
  getCard(@Headers(A2A_VERSION_HEADER.toLowerCase()) version: string | undefined): unknown {
    return isLegacyVersion(version) ? toLegacyAgentCard(this.card, { embedV1Interfaces: true }) : AgentCard.toJSON(this.card);
  }
}
