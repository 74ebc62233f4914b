import type { TokenUsage } from './usage';

/** USD per million tokens. */
export interface ModelPrice {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

export type PriceTable = Record<string, ModelPrice>;

const FREE: ModelPrice = Object.freeze({ input: 0, output: 0, cacheRead: 0, cacheWrite: 0 });

/**
 * List prices by model-name prefix (dated snapshots match their family). `MODEL_PRICES` adds to or
 * overrides these; a model missing from both has an unknown cost (null: unknown is not free), reported at boot.
 */
export const DEFAULT_PRICES: PriceTable = {
  'claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'gpt-5-mini': { input: 0.25, output: 2, cacheRead: 0.025, cacheWrite: 0 },
  'gpt-5': { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
  'gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  'gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 },
  'gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
};

/** The price of the longest table key the model name starts with. */
export function priceFor(model: string, table: PriceTable): ModelPrice | undefined {
  const key = Object.keys(table)
    .filter((prefix) => model.startsWith(prefix))
    .sort((a, b) => b.length - a.length)[0];
  return key === undefined ? undefined : table[key];
}

/** USD for the tokens at the price; null without a price. */
export function costOf(usage: TokenUsage, price: ModelPrice | undefined): number | null {
  if (!price) return null;
  return (usage.input * price.input + usage.output * price.output + usage.cacheRead * price.cacheRead + usage.cacheWrite * price.cacheWrite) / 1_000_000;
}

/** The default table with `MODEL_PRICES` (a JSON object of name prefix to price) laid over it. */
export function priceTableFrom(json: string | undefined): PriceTable {
  if (!json) return { ...DEFAULT_PRICES };
  const parsed: unknown = JSON.parse(json);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error('MODEL_PRICES must be a JSON object');
  const table: PriceTable = { ...DEFAULT_PRICES };
  for (const [prefix, value] of Object.entries(parsed as Record<string, unknown>)) table[prefix] = readPrice(prefix, value);
  return table;
}

function readPrice(prefix: string, value: unknown): ModelPrice {
  const fields = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const price = { ...FREE };
  for (const field of ['input', 'output', 'cacheRead', 'cacheWrite'] as const) {
    const amount = fields[field] ?? 0;
    if (typeof amount !== 'number' || amount < 0) throw new Error(`MODEL_PRICES["${prefix}"].${field} must be a non-negative number`);
    price[field] = amount;
  }
  return price;
}
