export { A2aModule, type A2aModuleOptions } from './lib/a2a.module';
export { AGENT_CARD_PATH, buildAgentCard, PRODUCT_VERSION, withTrailingSlash, type AgentCardSpec } from './lib/agent-card';
export { AGENT_CARD } from './lib/agent-card.controller';
export { validateEnvironment } from './lib/agent-config';
export { AGENT_USAGE, parseAgentFlags } from './lib/agent-flags';
export { AgentEnvironment, publicUrl, type LogLevel } from './lib/agent-environment';
export { bootstrapAgent } from './lib/bootstrap-agent';
