/**
 * Generated agent sessions for the gateway's manage-mode tests and bench: a seeded run of tool
 * calls with large outputs (test logs with failures, file reads, greps), rendered as the request
 * bodies a client sends on each call, for each API. Every request extends the previous one; the
 * Anthropic rendering moves one `cache_control` marker to the last block each call, as Claude Code does.
 */
import { intIn, pick, seededRandom } from './seededRandom';

type Json = Record<string, unknown>;

export interface SessionStep {
  id: string;
  tool: string;
  input: Json;
  output: string;
  isError: boolean;
  /** For the Responses rendering: which call item type carries it. */
  kind: 'function' | 'custom' | 'local_shell';
}

const FILES = ['src/auth/refreshToken.ts', 'src/billing/invoice.py', 'engine/pack/packItems.ts', 'lib/http/client.go', 'test/unit/auth.test.ts', 'src/ui/Panel.tsx'];
const SYMBOLS = ['refreshToken', 'InvoiceTotal', 'packItems', 'HttpClient.send', 'parse_header', 'MAX_RETRIES'];

function testLog(rand: () => number, lines: number, failing: boolean): string {
  const out: string[] = ['> npm test', ''];
  for (let i = 0; i < lines; i++) {
    const file = pick(rand, FILES);
    out.push(rand() < 0.02 && failing ? `FAIL ${file} > ${pick(rand, SYMBOLS)} rounds the total (expected 12.5, got 12.49)` : `  ✓ ${file} case ${i} passes in ${intIn(rand, 1, 90)} ms with ${pick(rand, SYMBOLS)}()`);
  }
  out.push(failing ? 'Error: 1 test failed\nexit code 1' : 'all tests passed\nexit code 0');
  return out.join('\n');
}

function fileRead(rand: () => number, lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) out.push(`${String(i + 1).padStart(5)}\tconst value${i} = ${pick(rand, SYMBOLS)}(input, ${intIn(rand, 0, 999)}); // ${pick(rand, FILES)}`);
  return out.join('\n');
}

/** `steps` tool calls; outputs of 60 to 300 lines (about 1k to 5k tokens), a few failing. */
export function generateSession(seed: number, steps: number): SessionStep[] {
  const rand = seededRandom(seed);
  const out: SessionStep[] = [];
  for (let i = 0; i < steps; i++) {
    const lines = intIn(rand, 60, 300);
    const r = rand();
    const id = `toolu_${seed}_${String(i).padStart(3, '0')}`;
    if (r < 0.4) {
      const failing = rand() < 0.4;
      out.push({ id, tool: 'Bash', input: { command: 'npm test', description: 'run the tests' }, output: testLog(rand, lines, failing), isError: failing, kind: i % 5 === 0 ? 'local_shell' : 'function' });
    } else if (r < 0.8) {
      const file = pick(rand, FILES);
      out.push({ id, tool: 'Read', input: { file_path: file }, output: fileRead(rand, lines), isError: false, kind: 'function' });
    } else {
      out.push({ id, tool: 'apply_patch', input: { patch: `*** Begin Patch\n*** Update File: ${pick(rand, FILES)}` }, output: fileRead(rand, Math.floor(lines / 3)), isError: false, kind: 'custom' });
    }
  }
  return out;
}

const SYSTEM = `You are a coding agent. ${'Follow the repository conventions and keep changes small. '.repeat(120)}`;
const TOOLS = [
  { name: 'Bash', description: 'Run a shell command', input_schema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'Read', description: 'Read a file', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } },
];
const TASK = 'Fix the rounding bug in the invoice total and make the tests pass.';

/** The Anthropic Messages body of call `n` (1-based: the task plus the first n-1 steps' results). */
export function anthropicRequest(steps: readonly SessionStep[], n: number): Json {
  const messages: Json[] = [{ role: 'user', content: [{ type: 'text', text: TASK }] }];
  for (const s of steps.slice(0, n - 1)) {
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `Next I run ${s.tool}.` }, { type: 'tool_use', id: s.id, name: s.tool, input: s.input }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: s.id, content: s.output, ...(s.isError ? { is_error: true } : {}) }] });
  }
  const last = messages[messages.length - 1]!;
  const blocks = last['content'] as Json[];
  blocks[blocks.length - 1] = { ...blocks[blocks.length - 1]!, cache_control: { type: 'ephemeral' } };
  return { model: 'claude-sonnet-4-5', max_tokens: 4096, stream: true, system: [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }], tools: TOOLS, messages };
}

/** The OpenAI Responses body of call `n`, Codex-style: the whole input every call, one call item type per step kind. */
export function responsesRequest(steps: readonly SessionStep[], n: number): Json {
  const input: Json[] = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: TASK }] }];
  for (const s of steps.slice(0, n - 1)) {
    if (s.kind === 'custom') {
      input.push({ type: 'custom_tool_call', call_id: s.id, name: s.tool, input: String(s.input['patch']) });
      input.push({ type: 'custom_tool_call_output', call_id: s.id, output: s.output });
    } else if (s.kind === 'local_shell') {
      input.push({ type: 'local_shell_call', call_id: s.id, status: 'completed', action: { type: 'exec', command: ['bash', '-lc', String(s.input['command'])] } });
      input.push({ type: 'local_shell_call_output', call_id: s.id, output: s.output });
    } else {
      input.push({ type: 'function_call', call_id: s.id, name: s.tool, arguments: JSON.stringify(s.input) });
      input.push({ type: 'function_call_output', call_id: s.id, output: s.output });
    }
  }
  return { model: 'gpt-5.1-codex', instructions: SYSTEM, tools: [], input, stream: true, store: false, prompt_cache_key: 'session-1' };
}

/** The OpenAI Chat Completions body of call `n`. */
export function chatRequest(steps: readonly SessionStep[], n: number): Json {
  const messages: Json[] = [{ role: 'system', content: SYSTEM }, { role: 'user', content: TASK }];
  for (const s of steps.slice(0, n - 1)) {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: s.id, type: 'function', function: { name: s.tool, arguments: JSON.stringify(s.input) } }] });
    messages.push({ role: 'tool', tool_call_id: s.id, content: s.output });
  }
  return { model: 'gpt-4.1', messages, stream: false };
}
