/**
 * A made-up Claude Code session for the live-attach tests: a main agent that reads files, hands a
 * search to a subagent (a sidechain) and edits, with secrets of the shapes people paste into
 * sessions in its input and tool output (none of them is real). One JSON record per line.
 */
const ANTHROPIC_KEY = 'sk-ant-api03-Zx9Qw8Er7Ty6Ui5Op4As3Df2Gh1Jk0LzXcVbNmQwErTyUiOpAsDfGhJkL';
const AWS_KEY = 'AKIAZ7Q4MADEUPKEY9XY';
const GITHUB_TOKEN = 'ghp_Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9St0Uv1Wx2Y';
export const SECRETS = [ANTHROPIC_KEY, AWS_KEY, GITHUB_TOKEN];

const at = (s: number) => new Date(Date.UTC(2026, 10, 30, 9, 0, s)).toISOString();
const usage = (input: number, read: number, write: number, output: number) => ({ input_tokens: input, cache_read_input_tokens: read, cache_creation_input_tokens: write, output_tokens: output });
/** The working folder the session records (its project is `login-service`). */
const SESSION_CWD = '/home/dev/login-service';
const user = (content: unknown, t: number, extra: object = {}) => ({ type: 'user', cwd: SESSION_CWD, timestamp: at(t), message: { role: 'user', content }, ...extra });
const assistant = (id: string, blocks: object[], u: object, t: number, extra: object = {}) => ({ type: 'assistant', cwd: SESSION_CWD, timestamp: at(t), message: { id, role: 'assistant', model: 'claude-made-up-1', content: blocks, usage: u }, ...extra });

/** The session's lines: `rounds` file reads by the main agent (the subagent runs after the sixth), then its closing answer. */
export function madeUpSession(rounds = 12): string[] {
  const side = { isSidechain: true, agentId: 'explorer' };
  const lines: object[] = [user(`Fix the login bug. Use ANTHROPIC_API_KEY=${ANTHROPIC_KEY} for the integration test.`, 0)];
  let t = 1;
  let read = 0;
  for (let i = 0; i < rounds; i++) {
    const file = `src/auth/module${i}.ts`;
    lines.push(assistant(`msg_m${i}`, [{ type: 'text', text: `Reading ${file}.` }, { type: 'tool_use', id: `tu_r${i}`, name: 'Read', input: { file_path: file } }], usage(40, read, 300, 20), t++));
    read += 340;
    const body = `export function check${i}(user: User) {\n  return verify(user.token, '${i === 3 ? AWS_KEY : 'no-secret-here'}');\n}\n`.repeat(6);
    lines.push(user([{ type: 'tool_result', tool_use_id: `tu_r${i}`, content: body }], t++));
    if (i === 8) {
      // Claude Code compacts the conversation: a boundary line, then the summary as a user line.
      lines.push({ type: 'system', subtype: 'compact_boundary', cwd: SESSION_CWD, content: 'Conversation compacted', timestamp: at(t++), compactMetadata: { trigger: 'auto' } });
      lines.push(user('This session is being continued. Summary: the login check is in src/auth; tests pending.', t++, { isCompactSummary: true }));
      read = 0;
    }
    if (i === 5) {
      lines.push(assistant('msg_task', [{ type: 'tool_use', id: 'tu_task', name: 'Task', input: { prompt: 'find where sessions expire' } }], usage(30, read, 100, 15), t++));
      read += 130;
      lines.push(user('find where sessions expire', t++, side));
      lines.push(assistant('msg_s1', [{ type: 'tool_use', id: 'tu_g', name: 'Grep', input: { pattern: 'expire' } }], usage(500, 0, 800, 10), t++, side));
      lines.push(user([{ type: 'tool_result', tool_use_id: 'tu_g', content: `src/auth/session.ts:12: const GH=${GITHUB_TOKEN}; expire(60)` }], t++, side));
      lines.push(assistant('msg_s2', [{ type: 'text', text: 'Sessions expire in src/auth/session.ts line 12.' }], usage(60, 800, 0, 12), t++, side));
      lines.push(user([{ type: 'tool_result', tool_use_id: 'tu_task', content: 'Sessions expire in src/auth/session.ts line 12.' }], t++));
    }
  }
  lines.push(assistant('msg_end', [{ type: 'text', text: 'Fixed: the token check now runs before expiry.' }], usage(25, read, 50, 30), t++));
  return lines.map((l) => JSON.stringify(l));
}

