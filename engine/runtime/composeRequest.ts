import type { Message } from '../conversation/Message';
import type { PromptParts } from '../prompt/composeParts';
import type { ProviderRequest, SystemBlock, ToolSpec } from '../providers/Provider';

/**
 * One provider request from the engine's cache layers and the agent's conversation
 * (`[request-layers]`): system = the conversation's canonical prompt with the engine's static part
 * (L0 + L1) — breakpoint —, then L2 — breakpoint —, then the conversation summary; the messages are
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
  const l2 = input.parts.layers.L2;
  if (l2 !== '') system.push({ text: `<context>\n${l2}</context>`, cacheBreakpoint: true });
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
