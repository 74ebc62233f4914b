export { FakeLlmServer, type FakeLlmServerOptions, type RecordedRequest } from './lib/fake-llm-server';
export {
  connectionReset,
  httpError,
  reply,
  type FakeConnectionReset,
  type FakeHttpError,
  type FakeLlmStep,
  type FakeReply,
  type FakeUsage,
} from './lib/fake-llm-script';
export type { FakeApi } from './lib/wire-formats';
