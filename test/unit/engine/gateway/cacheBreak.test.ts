import { describe, expect, it } from 'vitest';
import { blockPrefixReuse, bytesOf, cacheBreak } from '../../../../engine/gateway/cacheBreak';
import { isParseFailure, parseRequest } from '../../../../engine/gateway/parseRequest';
import type { RequestBlock } from '../../../../engine/gateway/types';
import { reuseRatio } from '../../../../engine/metrics/prefixReuse';
import { CLAUDE_TOOLS, claudeBody, claudeHeaders, claudeSystem, toolResult, toolUse, userText } from './gatewayFixtures';

const blocksOf = (body: Record<string, unknown>): RequestBlock[] => {
  const r = parseRequest('anthropic-messages', claudeHeaders(), JSON.stringify(body));
  if (isParseFailure(r)) throw new Error(r.failure);
  return r.blocks;
};

const history = [userText('H-TURN-1: read notes.txt'), toolUse('toolu_1', 'Read', { file_path: '/w/notes.txt' }), toolResult('toolu_1', '1\tBuild with make all.')];
const previous = blocksOf(claudeBody(history));

describe('[gateway-cache-break] the first block that changed since the thread’s previous request', () => {
  it.each([
    ['first call', undefined, claudeBody(history), { at: 'first call', blockIndex: -1 }],
    ['appended only (the breakpoint moved on)', previous, claudeBody([...history, toolUse('toolu_2', 'Bash', { command: 'ls' }), toolResult('toolu_2', 'notes.txt')]), { at: 'appended', blockIndex: 5 }],
    ['tools changed', previous, claudeBody(history, { tools: [...CLAUDE_TOOLS, { name: 'Write', description: 'Writes.', input_schema: { type: 'object' } }] }), { at: 'tools', blockIndex: 0 }],
    ['system changed', previous, claudeBody(history, { system: claudeSystem('6e9', 'Now with a timestamp: 10:42.') }), { at: 'system', blockIndex: 1 }],
    ['message 1 edited', previous, claudeBody([history[0]!, toolUse('toolu_1', 'Read', { file_path: '/w/other.txt' }), history[2]!]), { at: 'message 1', blockIndex: 3 }],
    ['the same request again (a retry)', previous, claudeBody(history), { at: 'unchanged', blockIndex: 5 }],
    ['a rewind to an earlier prefix', previous, claudeBody(history.slice(0, 1)), { at: 'message 1 removed', blockIndex: 3 }],
  ])('%s', (_name, before, body, expected) => {
    const blocks = blocksOf(body);
    const brk = cacheBreak(before, blocks);
    expect(brk).toMatchObject(expected);
    // unchangedBytes: exactly the bytes of the blocks before the break.
    expect(brk.unchangedBytes).toBe(bytesOf(blocks, Math.max(0, brk.blockIndex)));
  });

  it('a changed model breaks everything, whatever the blocks; the provider’s reason is carried', () => {
    const blocks = blocksOf(claudeBody(history));
    expect(cacheBreak(previous, blocks, undefined, { previous: 'claude-opus-5-5', current: 'claude-haiku-4-5' })).toEqual({ at: 'model', blockIndex: 0, unchangedBytes: 0 });
    expect(cacheBreak(previous, blocks, 'messages_changed', { previous: 'm', current: 'm' })).toEqual({ at: 'unchanged', blockIndex: 5, unchangedBytes: bytesOf(blocks), providerReason: 'messages_changed' });
  });
});

describe('[gateway-prefix-reuse] prefix reuse of a call: unchanged leading bytes over its bytes, with the one ratio', () => {
  it('is 0 on a first call, 1 on a retry, and the unchanged share otherwise', () => {
    const grown = blocksOf(claudeBody([...history, toolUse('toolu_2', 'Bash', { command: 'ls' }), toolResult('toolu_2', 'notes.txt')]));
    expect(blockPrefixReuse(cacheBreak(undefined, previous), previous)).toBe(0);
    expect(blockPrefixReuse(cacheBreak(previous, previous), previous)).toBe(1);
    const brk = cacheBreak(previous, grown);
    expect(blockPrefixReuse(brk, grown)).toBe(reuseRatio(bytesOf(previous), bytesOf(grown)));
    expect(blockPrefixReuse(brk, grown)).toBeGreaterThan(0.5);
    expect(blockPrefixReuse(brk, grown)).toBeLessThan(1);
  });
});
