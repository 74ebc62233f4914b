import { writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AnthropicModel } from './anthropic-model';
import { BaselineModel } from './baseline-model';
import { ModelFactory, resolveModelSpec, type ModelSettings } from './model-factory';
import { OpenAiModel } from './openai-model';
import { ScriptedModel } from './scripted-model';

function settings(overrides: Partial<ModelSettings> = {}): ModelSettings {
  return { MODEL_MAX_TOKENS: 4096, MODEL_TIMEOUT_S: 300, MODEL_MAX_RETRIES: 6, ...overrides };
}

describe('choosing the model', () => {
  it('uses the baseline when MODEL is unset and no key is present, else the provider whose key is there', () => {
    expect(resolveModelSpec({})).toEqual({ provider: 'baseline', name: '' });
    expect(resolveModelSpec({ OPENAI_API_KEY: 'sk' })).toEqual({ provider: 'openai', name: 'gpt-4.1' });
    expect(resolveModelSpec({ OPENAI_API_KEY: 'sk', ANTHROPIC_API_KEY: 'ak' })).toEqual({ provider: 'anthropic', name: 'claude-sonnet-4-6' });
    expect(resolveModelSpec({ MODEL: 'openai/qwen2.5-coder:32b', ANTHROPIC_API_KEY: 'ak' })).toEqual({ provider: 'openai', name: 'qwen2.5-coder:32b' });
  });

  it('refuses an unknown provider', () => {
    expect(() => resolveModelSpec({ MODEL: 'gemini/pro' })).toThrow('unknown MODEL "gemini/pro"');
  });

  it('makes a fresh model of the chosen kind for every context', () => {
    const baseline = new ModelFactory(settings());
    const anthropic = new ModelFactory(settings({ MODEL: 'anthropic/claude-haiku-4-5', ANTHROPIC_API_KEY: 'ak' }));
    const openai = new ModelFactory(settings({ MODEL: 'openai/gpt-4o', OPENAI_API_KEY: 'sk' }));

    expect(baseline.create()).toBeInstanceOf(BaselineModel);
    expect(baseline.create()).not.toBe(baseline.create());
    expect(anthropic.create()).toBeInstanceOf(AnthropicModel);
    expect(anthropic.modelName).toBe('anthropic/claude-haiku-4-5');
    expect(openai.create()).toBeInstanceOf(OpenAiModel);
  });

  it('stops at boot when the chosen provider has no key, naming the variable', () => {
    expect(() => new ModelFactory(settings({ MODEL: 'anthropic/claude-haiku-4-5' }))).toThrow('MODEL uses anthropic, but ANTHROPIC_API_KEY is not set');
    expect(() => new ModelFactory(settings({ MODEL: 'openai/gpt-4o' }))).toThrow('OPENAI_API_KEY is not set');
  });

  it('needs no OpenAI key for a self-hosted compatible server', () => {
    const factory = new ModelFactory(settings({ MODEL: 'openai/llama3', OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' }));

    expect(factory.create().name).toBe('openai/llama3');
  });

  it('warns at boot about a model with no price: its cost is unknown, so the cost limit cannot stop it', () => {
    const warnings: string[] = [];
    new ModelFactory(settings({ MODEL: 'openai/llama3', OPENAI_BASE_URL: 'http://h/v1' }), { warn: (message) => warnings.push(message) });
    new ModelFactory(settings({ MODEL: 'openai/llama3', OPENAI_BASE_URL: 'http://h/v1', MODEL_PRICES: '{"llama3": {"input": 0.1}}' }), {
      warn: (message) => warnings.push(`second: ${message}`),
    });

    expect(warnings).toEqual([expect.stringMatching(/no price for openai\/llama3 .*reported as unknown \(null\)/)]);
  });

  it('replays MODEL_SCRIPT_FILE for MODEL=scripted, and needs that file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'purple-script-'));
    try {
      const file = join(dir, 'script.json');
      writeFileSync(file, JSON.stringify(['first', { content: 'second', usage: { input: 3 } }]));
      const model = new ModelFactory(settings({ MODEL: 'scripted', MODEL_SCRIPT_FILE: file })).create();

      expect(model).toBeInstanceOf(ScriptedModel);
      expect((await model.query([])).content).toBe('first');
      expect(await model.query([])).toMatchObject({ content: 'second', usage: { input: 3 } });
      expect(() => new ModelFactory(settings({ MODEL: 'scripted' }))).toThrow('MODEL=scripted needs MODEL_SCRIPT_FILE');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
