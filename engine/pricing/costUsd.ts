import { normaliseModelName } from '../providers/cacheModel/rules';
import { LIST_PRICES, type ListPrice, type TokenRates } from './listPrices';

/**
 * Money from the one price table (`[cost-usd]`): a call's or a run's billed tokens at a model's
 * list prices, in US dollars, split by what was billed. Pure.
 */

/** Tokens as a provider bills them; the parts are disjoint. */
export interface BilledTokens {
  /** Uncached input. */
  input: number;
  cacheRead: number;
  /** Every cache write, both lifetimes. */
  cacheWrite: number;
  /** Of `cacheWrite`, the tokens written with a 1-hour lifetime (the rest: 5 minutes); 0 when unknown. */
  cacheWrite1h: number;
  output: number;
}

/** US dollars per billed part; `prompt` = input + cacheRead + cacheWrite, `total` = prompt + output. */
export interface CostUsd {
  input: number;
  cacheRead: number;
  cacheWrite: number;
  output: number;
  prompt: number;
  total: number;
}

/** The row of `LIST_PRICES` that prices `model` (the first whose pattern matches), if any. */
export function listPriceOf(model: string | undefined, table: readonly ListPrice[] = LIST_PRICES): ListPrice | undefined {
  if (!model) return undefined;
  const name = normaliseModelName(model);
  return table.find((p) => p.pattern.test(name));
}

const perToken = (n: number, usdPerMTok: number) => (n * usdPerMTok) / 1_000_000;

/** `tokens` at `rates`; 1-hour writes at the 1-hour write rate, other writes at the 5-minute one. */
export function costUsd(tokens: BilledTokens, rates: TokenRates): CostUsd {
  const oneHour = Math.min(Math.max(0, tokens.cacheWrite1h), tokens.cacheWrite);
  const input = perToken(tokens.input, rates.input);
  const cacheRead = perToken(tokens.cacheRead, rates.cacheRead);
  const cacheWrite = perToken(tokens.cacheWrite - oneHour, rates.cacheWrite5m) + perToken(oneHour, rates.cacheWrite1h);
  const output = perToken(tokens.output, rates.output);
  const prompt = input + cacheRead + cacheWrite;
  return { input, cacheRead, cacheWrite, output, prompt, total: prompt + output };
}

/** The sum of several costs (a run's steps, a comparison's traces). */
export function addCosts(costs: readonly CostUsd[]): CostUsd {
  const sum = (pick: (c: CostUsd) => number) => costs.reduce((n, c) => n + pick(c), 0);
  return { input: sum((c) => c.input), cacheRead: sum((c) => c.cacheRead), cacheWrite: sum((c) => c.cacheWrite), output: sum((c) => c.output), prompt: sum((c) => c.prompt), total: sum((c) => c.total) };
}

const dollars = (x: number) => `$${Number(x.toFixed(4))}`;

/** What a priced figure rests on, in one line: the model's rates and their source and date, or that it has none. */
export function priceNote(model: string, price: ListPrice | undefined = listPriceOf(model)): string {
  if (!price) return `no list price for ${model}`;
  const r = price.perMTok;
  const writes = r.cacheWrite5m === r.input && r.cacheWrite1h === r.input ? 'no cache-write charge' : `${dollars(r.cacheWrite5m)} 5-minute / ${dollars(r.cacheWrite1h)} 1-hour cache write`;
  const tier = price.standardRateUpTo ? `; standard rate up to ${price.standardRateUpTo.toLocaleString('en-US')}-token prompts` : '';
  return `${model} (${price.models}): ${dollars(r.input)} input, ${dollars(r.cacheRead)} cache read, ${writes}, ${dollars(r.output)} output per million tokens${tier} (${price.source}, read ${price.read})`;
}

/** A run priced at `model`'s list prices: its dollars (null without a list price) and what they rest on. */
export interface RunCost {
  model: string;
  usd: CostUsd | null;
  /** `priceNote` of the model. */
  note: string;
  /** Calls whose prompt was over the row's standard-rate limit: priced at the standard rate, so the figure is low. */
  callsOverStandardRate: number;
}

/** The calls of a run (each with its prompt size) at `model`'s list prices. */
export function priceRun(model: string, calls: readonly (BilledTokens & { promptTokens: number })[]): RunCost {
  const price = listPriceOf(model);
  const note = priceNote(model, price);
  if (!price) return { model, usd: null, note, callsOverStandardRate: 0 };
  const limit = price.standardRateUpTo ?? Infinity;
  return { model, usd: addCosts(calls.map((c) => costUsd(c, price.perMTok))), note, callsOverStandardRate: calls.filter((c) => c.promptTokens > limit).length };
}
