import { managedSaving } from '../../../engine/gateway/managedSaving';
import type { GatewayCall } from '../../../engine/gateway/types';
import { costUsd, listPriceOf } from '../../../engine/pricing/costUsd';
import type { RunFigures } from './runFigures';

/**
 * The control room's estimated saving (`[gateway-host-savings]`) against the real one: the observe
 * run's bill less the manage run's, the same task call for call (the scripted server answers both
 * runs alike, so the client sends the same originals). Per call, the estimate's counterfactual
 * beside the observe run's real bill of the same call says where the two differ.
 */

export interface SavingsComparison {
  /** Observe run's money less the manage run's, output included (the same in both). */
  realUsd: number;
  /** The same, prompt parts only. */
  realPromptUsd: number;
  /** The sum of the calls' `managedSaving`. */
  estimatedUsd: number;
  /** A table: per call the observe bill, the counterfactual, the manage bill. */
  report: string;
}

const usd = (x: number) => `${x < 0 ? '-' : ' '}$${Math.abs(x).toFixed(4)}`;

export function compareSavings(observe: RunFigures, manage: RunFigures, calls: readonly GatewayCall[]): SavingsComparison {
  const price = listPriceOf(manage.model);
  if (!price || observe.usd === null || manage.usd === null) throw new Error(`no list price for ${manage.model}: the saving cannot be compared`);
  if (observe.calls.length !== manage.calls.length || calls.length !== manage.calls.length) throw new Error(`the runs differ: ${observe.calls.length} observed calls, ${manage.calls.length} managed, ${calls.length} gateway records`);
  let estimatedUsd = 0;
  let realPromptUsd = 0;
  const rows = calls.map((c, i) => {
    const o = observe.calls[i]!;
    const m = manage.calls[i]!;
    const s = c.rewrite && c.original && c.usage ? managedSaving({ model: c.model, usage: c.usage, originalTokens: c.rewrite.originalTokens, rewrittenTokens: c.rewrite.rewrittenTokens, sentCacheBreak: c.cacheBreak.at, original: c.original }) : undefined;
    const observed = costUsd(o, price.perMTok).prompt;
    const billed = costUsd(m, price.perMTok).prompt;
    const cf = s ? costUsd(s.counterfactual, price.perMTok).prompt : billed;
    estimatedUsd += s?.usd ?? 0;
    realPromptUsd += observed - billed;
    const cfPrompt = s ? s.counterfactual.input + s.counterfactual.cacheRead + s.counterfactual.cacheWrite : m.prompt;
    return `  #${String(i).padStart(3)} ${(c.rewrite?.boundary ? 'boundary' : '').padEnd(8)} ${(c.original?.cacheBreak.at ?? '-').padEnd(11)} observe ${String(o.prompt).padStart(7)} tok (read ${String(o.cacheRead).padStart(7)}) ${usd(observed)}  estimate ${String(Math.round(cfPrompt)).padStart(7)} tok (read ${String(Math.round(s?.counterfactual.cacheRead ?? m.cacheRead)).padStart(7)}) ${usd(cf)}  manage ${usd(billed)}  real saving ${usd(observed - billed)} estimated ${usd(cf - billed)}`;
  });
  const realUsd = observe.usd - manage.usd;
  const head = `Savings: real ${usd(realUsd)} (prompt ${usd(realPromptUsd)}), estimated ${usd(estimatedUsd)} (${((estimatedUsd / realUsd - 1) * 100).toFixed(1)}% off the real)`;
  return { realUsd, realPromptUsd, estimatedUsd, report: [head, ...rows].join('\n') };
}
