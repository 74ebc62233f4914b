// What every agent app is made of around its own logic: its configuration, validated once at boot, the
// AgentBeats flags, its logging, the A2A server's options from its configuration, and the boot itself.
export { AGENT_USAGE, parseAgentFlags } from './lib/agent-flags';
export { AppConfig, publicUrl, type LogLevel } from './lib/app-config';
export { ByteSize, HttpUrl, NumberFrom, OnOff, Text, WholeNumber } from './lib/config-fields';
export { AppConfigModule, type AppConfigOptions } from './lib/app-config.module';
export { validateEnvironment } from './lib/validate-environment';
export { agentLoggingModule } from './lib/agent-logging';
export { a2aServerOptions } from './lib/a2a-server-options';
export { bootstrapAgent } from './lib/bootstrap-agent';
export { agentAppModule } from './lib/agent-app-module';
