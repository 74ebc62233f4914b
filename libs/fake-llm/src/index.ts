export { FakeLlmServer, type RecordedRequest } from './lib/fake-llm-server';
export { connectionReset, httpError, reply, toolCall, type FakeLlmStep } from './lib/fake-llm-script';
export { asideWithoutTools } from './lib/anthropic-stream';
