// Test-only entry point (`@arvo-rca/a2a-protocol/testing`): a real agent on loopback with a scripted
// executor, for suites of apps that talk to a peer agent.
export { EchoExecutor } from './lib/testing/echo-executor.testing';
export { rejectionOf } from './lib/testing/rejection.testing';
export { freePort, startTestAgent, type TestAgent } from './lib/testing/test-agent.testing';
export { fillerStream, parseSseBody, postRaw, readJson, sendMessageBody, serveModule, type RawAnswer } from './lib/testing/http.testing';
export { completedTask, filler, HostilePeer } from './lib/client/hostile-peer.testing';
