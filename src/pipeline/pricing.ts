/**
 * Estimated cost of one model call from its token counts. Prices are USD
 * per million tokens, looked up by the longest model-name prefix; the
 * defaults below can be overridden or extended with LLM_PRICES_FILE
 * (docs/pipeline-adapters.md). Pure: no I/O.
 */

export interface ModelPrice {
  /** USD per 1M input (prompt) tokens. */
  readonly input: number;
  /** USD per 1M output (completion) tokens. */
  readonly output: number;
}

/** Lower-case model-name prefix → price. */
export type PriceTable = Readonly<Record<string, ModelPrice>>;

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}

/**
 * List prices at the time of writing, per 1M tokens. Cached-input discounts
 * and long-context surcharges are not modelled: every input token is priced
 * at the `input` rate, which over-estimates cached runs slightly.
 */
export const DEFAULT_PRICES: PriceTable = Object.freeze({
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-opus-4-5': { input: 5, output: 25 },
  'claude-3-opus': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-haiku-4': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
  'claude-3-haiku': { input: 0.25, output: 1.25 },
  'gemini-2.0-flash': { input: 0.1, output: 0.4 },
  'gemini-2.0-flash-lite': { input: 0.075, output: 0.3 },
  'gemini-2.5-flash': { input: 0.3, output: 2.5 },
  'gemini-2.5-flash-lite': { input: 0.1, output: 0.4 },
  'gemini-2.5-pro': { input: 1.25, output: 10 },
  'text-embedding-3-small': { input: 0.02, output: 0 },
  'text-embedding-3-large': { input: 0.13, output: 0 },
  // The offline extractive responder runs in-process: free, and known to be free.
  extractive: { input: 0, output: 0 },
});

/** The default prices with `overrides` (LLM_PRICES_FILE) laid over them; an override wins for its prefix. */
export function createPriceTable(overrides?: PriceTable | null): PriceTable {
  const table: Record<string, ModelPrice> = { ...DEFAULT_PRICES };
  for (const [prefix, price] of Object.entries(overrides ?? {})) table[prefix.trim().toLowerCase()] = price;
  return Object.freeze(table);
}

export interface PricedUsage {
  costUsd: number;
  /** False when no prefix matched: the cost is then 0 and means "unknown", not "free". */
  priced: boolean;
  /** The table key that matched, for traces. */
  matched: string | null;
}

/**
 * Prices one call. The model name is compared lower-case, without a vendor
 * path (`openai/gpt-4o` and `models/gemini-2.5-pro` price as `gpt-4o` and
 * `gemini-2.5-pro`), against the longest matching prefix, so
 * `gpt-4o-mini-2024-07-18` takes the `gpt-4o-mini` price, not `gpt-4o`.
 * Negative or non-finite token counts count as 0.
 */
export function priceUsage(
  model: string,
  usage: TokenCounts,
  table: PriceTable = DEFAULT_PRICES,
): PricedUsage {
  const name = model.trim().toLowerCase().split('/').pop() ?? '';
  let matched: string | null = null;
  for (const prefix of Object.keys(table)) {
    if (name.startsWith(prefix) && (matched === null || prefix.length > matched.length)) matched = prefix;
  }
  const price = matched === null ? undefined : table[matched];
  if (!price) return { costUsd: 0, priced: false, matched: null };
  const tokens = (n: number) => (Number.isFinite(n) && n > 0 ? n : 0);
  const cost =
    (tokens(usage.inputTokens) * price.input + tokens(usage.outputTokens) * price.output) / 1_000_000;
  // Ten decimals keep a one-token call's cost and drop binary float noise (0.1 + 0.2).
  return { costUsd: Math.round(cost * 1e10) / 1e10, priced: true, matched };
}

/** {@link priceUsage}'s cost alone: USD, 0 for a model no prefix matches. */
export function estimateCostUsd(
  model: string,
  usage: TokenCounts,
  table: PriceTable = DEFAULT_PRICES,
): number {
  return priceUsage(model, usage, table).costUsd;
}
