import { Controller, Get, Inject } from '@nestjs/common';
import type { AgentCard } from '@a2a-js/sdk';
import { AGENT_CARD_PATH } from './agent-card';

export const AGENT_CARD = Symbol('AGENT_CARD');

@Controller()
export class AgentCardController {
  constructor(@Inject(AGENT_CARD) private readonly card: AgentCard) {}

  @Get(AGENT_CARD_PATH)
  getCard(): AgentCard {
    return this.card;
  }
}
