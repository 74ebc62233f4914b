// What every agent app is made of around its own logic: its configuration, validated once at boot, and the
// module and boot around it (the AgentBeats flags, its logging and the A2A server's options are theirs).
export { AppConfig, publicUrl } from './lib/app-config';
export { AppConfigModule } from './lib/app-config.module';
export { validateEnvironment } from './lib/validate-environment';
export { bootstrapAgent } from './lib/bootstrap-agent';
export { agentAppModule } from './lib/agent-app-module';
