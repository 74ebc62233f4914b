// A fake LLM for an e2e suite, and the purple agent's model settings that point at it.
import { FakeLlmServer } from '@arvo-rca/fake-llm';

/** The key the suites' fake LLM servers take. */
const FAKE_LLM_KEY = 'sk-test';

/** A fake LLM server for the describe block: started before its tests, closed after them; read it inside them. */
export function suiteLlm(): () => FakeLlmServer {
  let llm: FakeLlmServer | undefined;
  beforeAll(async () => {
    llm = await FakeLlmServer.start({ apiKey: FAKE_LLM_KEY });
  });
  afterAll(async () => {
    await llm?.close();
  });
  return () => {
    if (!llm) throw new Error("the suite's fake LLM is there only inside its tests and hooks");
    return llm;
  };
}

/** A purple agent's model on `llm`'s OpenAI endpoint: `model` (openai/gpt-4.1 unless told), the fake's key, no retries. */
export function fakeModelEnv(llm: FakeLlmServer, model = 'openai/gpt-4.1'): NodeJS.ProcessEnv {
  return { MODEL: model, OPENAI_BASE_URL: llm.openAiBaseUrl, OPENAI_API_KEY: FAKE_LLM_KEY, MODEL_MAX_RETRIES: '0' };
}
