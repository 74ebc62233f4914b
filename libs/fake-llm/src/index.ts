export { FakeLlmServer, type FakeLlmServerOptions, type RecordedRequest } from './lib/fake-llm-server';
export {
  connectionReset,
  httpError,
  reply,
  toolCall,
  type FakeConnectionReset,
  type FakeHttpError,
  type FakeLlmStep,
  type FakeReply,
  type FakeToolCall,
  type FakeUsage,
} from './lib/fake-llm-script';
export { anthropicStreamEvents, asideWithoutTools, type AnthropicSseEvent } from './lib/anthropic-stream';
export type { FakeApi } from './lib/wire-formats';
export { GEMINI_AUXILIARY_TEXT } from './lib/gemini-stream';
