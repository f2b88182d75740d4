import type { Message } from '../conversation/Message';
import type { PromptParts } from '../prompt/composeParts';
import type { ProviderRequest, SystemBlock, ToolSpec } from '../providers/Provider';

/** Opens the L2 blocks in the system prompt (no closing tag: a tag after the last block would move with every append). */
export const L2_HEADING = 'Context for this task (state, findings, code), oldest first:';

/**
 * One provider request from the engine's cache layers and the agent's conversation
 * (`[request-layers]`): system = the conversation's canonical prompt with the engine's static part
 * (L0 + L1) — breakpoint —, then L2 as one block per entry — breakpoint on the last —, then the conversation summary; the messages are
 * the conversation's history with this turn's transients (L3 among them) at the tail, and a third
 * breakpoint closes the stable history. Three breakpoints, under Anthropic's four. The order is the
 * order of change: what changes least comes first, so each provider's prefix cache keeps hitting.
 */
export function composeRequest(input: {
  model: string;
  parts: PromptParts;
  /** The conversation as built (system, summary, resume bridge, history, transients). */
  messages: readonly Message[];
  tools: ToolSpec[];
  maxOutputTokens: number;
  cacheKey: string;
}): ProviderRequest {
  const canonical = input.messages.find((m) => m.role === 'system' && m.kind === 'canonical');
  const summary = input.messages.find((m) => m.role === 'system' && m.kind === 'summary');
  const staticText = [canonical?.content ?? '', input.parts.static].filter((t) => t !== '').join('\n\n');
  const system: SystemBlock[] = [{ text: staticText, cacheBreakpoint: true }];
  // One block per L2 entry, the breakpoint on the last: L2 only appends within a generation, so the
  // previous request's breakpoint is still a block boundary and the cache lookback finds it there.
  const l2 = input.parts.l2Blocks ?? (input.parts.layers.L2 ? [input.parts.layers.L2] : []);
  l2.forEach((text, i) => system.push({ text: i === 0 ? `${L2_HEADING}\n${text}` : text, cacheBreakpoint: i === l2.length - 1 }));
  if (summary) system.push({ text: summary.content, cacheBreakpoint: false });
  return {
    model: input.model,
    system,
    messages: input.messages.filter((m) => m.role !== 'system'),
    historyBreakpoint: true,
    tools: input.tools,
    maxOutputTokens: input.maxOutputTokens,
    cacheKey: input.cacheKey,
  };
}

/** The request as one text, in the order a provider reads it: what prefix reuse is measured on. */
export function requestText(request: ProviderRequest): string {
  const parts = request.system.map((b) => b.text);
  for (const m of request.messages) {
    if (m.role === 'assistant') parts.push(`assistant: ${m.content}${m.toolCalls.map((c) => `\n<call ${c.id} ${c.name}>${c.arguments}`).join('')}`);
    else if (m.role === 'tool') parts.push(`tool ${m.toolCallId}${m.isError ? ' error' : ''}: ${m.content}`);
    else parts.push(`${m.role}: ${m.content}`);
  }
  return parts.join('\n\n');
}
