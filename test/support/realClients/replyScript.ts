/**
 * The script that drives a real client through a run: rules that answer model calls, matched by
 * what each request CONTAINS (whose thread it is, which tool result it carries), never by arrival
 * order alone, because a client's subagent and main-thread calls interleave.
 *
 * The server answers a call with the first rule not used yet whose `when` holds; each rule
 * answers once (a second answer would hide a retry). A call no rule matches gets a plain final
 * answer and is logged as unscripted, so the run ends instead of hanging and the test can name it.
 */

export type WireApi = 'anthropic' | 'responses';

/** A tool call a scripted reply makes; `id` is the Anthropic `tool_use` id or the Responses `call_id`. */
interface ScriptedCall {
  id: string;
  name: string;
  input: Record<string, unknown>;
  /** Responses only: the namespace of a namespaced tool (`collaboration` for Codex's `spawn_agent`). */
  namespace?: string;
}

export interface ScriptedReply {
  text?: string;
  calls?: ScriptedCall[];
}

/** The parts of a request a rule looks at, the same for both wire formats. */
export interface RequestView {
  api: WireApi;
  body: Record<string, unknown>;
  /** System blocks (Anthropic) or `instructions` and developer/system messages (Responses), joined. */
  system: string;
  /** The text of every user-role message, in order (tool results excluded); Codex's `agent_message` input from another agent counts as one. */
  userTexts: string[];
  /** Tool results in order: the call id and the result's text. */
  results: { callId: string; text: string }[];
  /** True when the request ends with tool results (the model is to continue after a tool). */
  endsWithResult: boolean;
}

export interface ScriptRule {
  id: string;
  /** Whose call this is, as the server logs it: `main`, `subagent:<name>`, `compaction`, … */
  agent: string;
  when(request: RequestView): boolean;
  reply: ScriptedReply | ((request: RequestView) => ScriptedReply);
}

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const textOf = (content: unknown): string => {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return (content as unknown[])
    .filter((b): b is Json => isRecord(b) && b['type'] !== 'tool_result' && (typeof b['text'] === 'string' || typeof b['encrypted_content'] === 'string'))
    .map((b) => String(b['text'] ?? b['encrypted_content']))
    .join('\n');
};

/** The rule-facing view of a request body. */
export function viewRequest(api: WireApi, body: Json): RequestView {
  const userTexts: string[] = [];
  const results: { callId: string; text: string }[] = [];
  let endsWithResult = false;
  let system = '';
  if (api === 'anthropic') {
    const sys = body['system'];
    system = typeof sys === 'string' ? sys : Array.isArray(sys) ? textOf(sys) : '';
    for (const m of (Array.isArray(body['messages']) ? body['messages'] : []) as unknown[]) {
      if (!isRecord(m)) continue;
      // Mid-conversation system messages (Claude Code sends them) neither end nor begin a turn.
      if (m['role'] === 'assistant') endsWithResult = false;
      if (m['role'] !== 'user') continue;
      const content = m['content'];
      const text = textOf(content);
      if (text.length > 0) userTexts.push(text);
      endsWithResult = false;
      if (Array.isArray(content)) {
        for (const b of content as unknown[]) {
          if (isRecord(b) && b['type'] === 'tool_result') {
            results.push({ callId: String(b['tool_use_id']), text: typeof b['content'] === 'string' ? b['content'] : textOf(b['content']) });
            endsWithResult = true;
          }
        }
      }
    }
  } else {
    const parts: string[] = typeof body['instructions'] === 'string' ? [body['instructions']] : [];
    const input = body['input'];
    for (const item of (Array.isArray(input) ? input : typeof input === 'string' ? [{ type: 'message', role: 'user', content: input }] : []) as unknown[]) {
      if (!isRecord(item)) continue;
      const type = item['type'] ?? (typeof item['role'] === 'string' ? 'message' : undefined);
      if (type === 'message') {
        if (item['role'] === 'user' || item['role'] === 'assistant') endsWithResult = false;
        if (item['role'] === 'user') userTexts.push(textOf(item['content']));
        else if (item['role'] === 'developer' || item['role'] === 'system') parts.push(textOf(item['content']));
      } else if (type === 'agent_message') {
        endsWithResult = false;
        userTexts.push(textOf(item['content']));
      } else if (type === 'function_call_output' || type === 'custom_tool_call_output') {
        const output = item['output'];
        results.push({ callId: String(item['call_id']), text: typeof output === 'string' ? output : textOf(output) });
        endsWithResult = true;
      } else if (type === 'function_call' || type === 'custom_tool_call') endsWithResult = false;
    }
    system = parts.join('\n');
  }
  return { api, body, system, userTexts, results, endsWithResult };
}

/** The request ends with the result of call `callId`. */
export const after = (callId: string) => (r: RequestView) => r.endsWithResult && r.results.some((x) => x.callId === callId) && r.results[r.results.length - 1]?.callId === callId;

/** Some user message contains `marker`. */
export const userSaid = (marker: string) => (r: RequestView) => r.userTexts.some((t) => t.includes(marker));

/** The LAST user message contains `marker` and no tool result follows it. */
export const lastUserSaid = (marker: string) => (r: RequestView) => !r.endsWithResult && (r.userTexts[r.userTexts.length - 1] ?? '').includes(marker);
