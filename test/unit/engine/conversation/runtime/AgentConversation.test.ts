import { describe, expect, it } from 'vitest';
import { AgentConversation, CHECKPOINT_LIMIT, fallbackSummarizer, type AgentConversationOptions, type ConversationEvent } from '../../../../../engine/conversation/AgentConversation';
import type { ContextCheckpoint } from '../../../../../engine/conversation/checkpoint';
import { DEFAULT_CONTEXT_CONFIG, type ContextConfig } from '../../../../../engine/conversation/contextConfig';
import { ContextError } from '../../../../../engine/conversation/ContextError';
import { extractiveSummarizer } from '../../../../../engine/conversation/extractiveSummarizer';
import type { Message } from '../../../../../engine/conversation/Message';
import { SkillRegistry } from '../../../../../engine/skills/SkillRegistry';
import { assistant, bytes, expectValid, fakeSummarizer, SYSTEM_PROMPT, testPorts, user, wordTokenizer, words } from '../core/conversationFixtures';
import { countWords, skill } from '../../skills/skillFixtures';

const config = (over: Partial<ContextConfig> = {}): ContextConfig => ({ ...DEFAULT_CONTEXT_CONFIG, maxTokens: 300, preserveRecentTurns: 2, summaryMaxTokens: 60, ...over });

function conversation(options: Partial<AgentConversationOptions> = {}, ports = testPorts()) {
  const events: ConversationEvent[] = [];
  const conv = new AgentConversation(SYSTEM_PROMPT, ports, { config: config(), summarizer: extractiveSummarizer(wordTokenizer), onEvent: (e) => events.push(e), ...options });
  return { conv, events, ports };
}

/** One user turn and its answer with a tool call; `size` words each. */
function exchange(conv: AgentConversation, n: number, size = 40): void {
  const lease = conv.beginTurn();
  conv.append(lease, user(`step ${n}: we decided to keep the parser; ${words(size, `u${n}x`)}`));
  conv.append(lease, assistant(`working on step ${n}`, [{ id: `call-${n}`, name: 'grep', result: words(size, `r${n}x`) }]));
}

const kinds = (messages: Message[]): string[] => messages.map((m) => ('kind' in m ? `${m.role}:${m.kind}` : m.role));
const transientSources = (messages: Message[]): string[] => messages.flatMap((m) => ('kind' in m && m.kind === 'transient' ? [m.source] : []));

describe('AgentConversation: the [context] strategy over max_tokens', () => {
  it('[truncate-newest] [audit-destructive] truncate drops the oldest turns after a completed turn and writes one event with the audit', async () => {
    const { conv, events } = conversation({ config: config({ strategy: 'truncate' }) });
    for (let n = 0; n < 6; n++) {
      exchange(conv, n);
      conv.prepareRequest();
      await conv.afterTurn();
      expectValid(conv.manager);
      expect(conv.manager.tokens()).toBeLessThanOrEqual(300);
    }
    const compactions = events.filter((e) => e.kind === 'compaction');
    expect(compactions.length).toBeGreaterThan(0);
    expect(compactions.every((e) => e.kind === 'compaction' && e.method === 'truncate' && e.trigger === 'budget' && e.outcome === 'compacted')).toBe(true);
    const first = compactions[0]!;
    expect(first.kind === 'compaction' && first.audit?.removedGroupIds.length).toBeGreaterThan(0);
    // A truncation writes no summary, so no checkpoint.
    expect(conv.checkpoints()).toEqual([]);
  });

  it('[compress-atomic] [checkpoint-disjoint] compress writes one summary and a checkpoint whose source and retained turns are disjoint and whose telemetry shrank', async () => {
    const { conv, events } = conversation({ config: config({ strategy: 'compress' }) });
    for (let n = 0; n < 8; n++) {
      exchange(conv, n);
      conv.prepareRequest();
      await conv.afterTurn();
      expectValid(conv.manager);
    }
    const checkpoints = conv.checkpoints();
    expect(checkpoints.length).toBeGreaterThan(0);
    for (const c of checkpoints) {
      expect(c.sourceTurnIds.filter((t) => c.retainedTurnIds.includes(t))).toEqual([]);
      expect(c.telemetryAfter.tokens).toBeLessThanOrEqual(c.telemetryBefore.tokens);
    }
    const last = checkpoints.at(-1)!;
    expect(conv.manager.snapshot().summary?.sourceTurnIds).toEqual(last.sourceTurnIds);
    expect(new Set(conv.manager.groups().map((g) => g.turnId))).toEqual(new Set(last.retainedTurnIds));
    expect(events.filter((e) => e.kind === 'compaction').every((e) => e.kind === 'compaction' && e.method === 'compress')).toBe(true);
  });

  it('[checkpoints-bounded] a long run keeps the newest 20 checkpoints; older compaction events keep their figures but release their summaries, also across a snapshot', async () => {
    const { conv } = conversation({ config: config({ strategy: 'compress' }) });
    for (let n = 0; n < 80; n++) {
      exchange(conv, n);
      conv.prepareRequest();
      await conv.afterTurn();
    }
    const check = (c: AgentConversation) => {
      const kept = c.checkpoints();
      expect(kept).toHaveLength(CHECKPOINT_LIMIT);
      const compacted = c.events().filter((e) => e.kind === 'compaction' && e.outcome === 'compacted');
      expect(compacted.length).toBeGreaterThan(CHECKPOINT_LIMIT);
      const holding = compacted.filter((e) => e.kind === 'compaction' && e.checkpoint);
      const released = compacted.filter((e) => e.kind === 'compaction' && e.checkpointReleased);
      expect(holding).toHaveLength(CHECKPOINT_LIMIT);
      expect(released).toHaveLength(compacted.length - CHECKPOINT_LIMIT);
      // The kept events hold the kept checkpoints themselves, newest last; the released ones come first.
      expect(holding.map((e) => e.kind === 'compaction' && e.checkpoint)).toEqual(kept);
      expect(holding.every((e, i) => e.kind === 'compaction' && e.checkpoint === kept[i])).toBe(true);
      expect(compacted.slice(0, released.length)).toEqual(released);
      expect(released.every((e) => e.kind === 'compaction' && e.checkpoint === undefined && e.tokensAfter < e.tokensBefore)).toBe(true);
    };
    check(conv);
    check(AgentConversation.restore(JSON.parse(JSON.stringify(conv.snapshot())), testPorts(), { config: config({ strategy: 'compress' }), summarizer: extractiveSummarizer(wordTokenizer) }));
  });

  it('[compress-atomic] a failing summarizer leaves the conversation byte-identical, writes a failed event and owes no reminder', async () => {
    const { conv, events } = conversation({ config: config({ strategy: 'compress' }), summarizer: fakeSummarizer(() => { throw new Error('model unavailable'); }) });
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    const before = bytes(conv.manager);
    const [event] = await conv.afterTurn();
    expect(event).toMatchObject({ kind: 'compaction', outcome: 'failed', method: 'compress' });
    expect(event?.reason).toMatch(/model unavailable/);
    expect(bytes(conv.manager)).toBe(before);
    expect(conv.reminderOwed()).toBe(false);
    expect(events).toHaveLength(1);
  });

  it('[audit-destructive] a conversation within max_tokens is left alone and writes no event', async () => {
    const { conv, events } = conversation();
    exchange(conv, 0, 5);
    expect(await conv.afterTurn()).toEqual([]);
    expect(events).toEqual([]);
  });
});

describe('AgentConversation: compaction hooks', () => {
  it('[fallback-hooks] a pre-compact hook denies: nothing changes, a denied event names the hook, post hooks do not run', async () => {
    const post: string[] = [];
    const { conv, events } = conversation({
      preCompact: [{ name: 'keep-evidence', run: (plan) => (plan.trigger === 'budget' ? 'an audit is in progress' : undefined) }],
      postCompact: [{ name: 'log', run: (e) => void post.push(e.id) }],
    });
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    const before = bytes(conv.manager);
    const [event] = await conv.afterTurn();
    expect(event).toMatchObject({ outcome: 'denied', deniedBy: 'keep-evidence', reason: 'an audit is in progress', tokensAfter: event?.tokensBefore });
    expect(bytes(conv.manager)).toBe(before);
    expect(post).toEqual([]);
    expect(events).toEqual([event]);
    expect(conv.reminderOwed()).toBe(false);
  });

  it('[fallback-hooks] a pre-compact hook that throws denies (fail closed)', async () => {
    const { conv } = conversation({ preCompact: [{ name: 'broken', run: () => { throw new Error('boom'); } }] });
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    const before = bytes(conv.manager);
    const [event] = await conv.afterTurn();
    expect(event).toMatchObject({ outcome: 'denied', deniedBy: 'broken' });
    expect(event?.reason).toMatch(/pre-compact hook failed: boom/);
    expect(bytes(conv.manager)).toBe(before);
  });

  it('[fallback-hooks] post-compact hooks run with the event after the change; a throwing one is recorded and the compaction stands', async () => {
    const seen: number[] = [];
    const { conv } = conversation({
      postCompact: [
        { name: 'measure', run: () => void seen.push(conv.manager.tokens()) },
        { name: 'broken', run: () => { throw new Error('disk full'); } },
      ],
    });
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    const [event] = await conv.afterTurn();
    expect(event?.outcome).toBe('compacted');
    expect(seen).toEqual([event?.tokensAfter]);
    expect(event?.postHookFailures).toEqual([{ name: 'broken', message: 'disk full' }]);
    expect(conv.manager.tokens()).toBeLessThanOrEqual(300);
  });
});

describe('AgentConversation: the workspace reminder', () => {
  it('[reminder-one-shot] after a compaction exactly the next request carries one bounded reminder with the workspace facts', async () => {
    const facts = { changedFiles: ['src/parser.ts'], lastCheck: { command: 'npm test', status: 'failed (2)' }, recentPaths: ['src/lexer.ts'], allowedPaths: ['src/**'], verification: 'npm test', remainingSteps: 3, tokenLimit: 300 };
    const { conv, events } = conversation({ workspaceFacts: () => facts });
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    await conv.afterTurn();
    expect(conv.reminderOwed()).toBe(true);
    const first = conv.prepareRequest();
    expect(transientSources(first.messages)).toEqual(['reminder']);
    const text = first.transients[0]!.content;
    expect(text).toMatch(/workspace reminder v1/);
    expect(text).toMatch(/src\/parser\.ts/);
    expect(text).toMatch(/npm test → failed \(2\)/);
    expect(text.length).toBeLessThanOrEqual(1200);
    expect(kinds(first.messages).at(-1)).toBe('user:transient');
    expect(transientSources(conv.prepareRequest().messages)).toEqual([]);
    expect(events.filter((e) => e.kind === 'workspace_reminder')).toHaveLength(1);
  });

  it('[reminder-one-shot] a resumed conversation owes the reminder once if it was not yet sent, and never again if it was', async () => {
    const { conv, ports } = conversation();
    for (let n = 0; n < 3; n++) exchange(conv, n, 60);
    await conv.afterTurn();
    const owed = JSON.parse(JSON.stringify(conv.snapshot()));
    const options = { config: config(), summarizer: extractiveSummarizer(wordTokenizer) };
    const resumed = AgentConversation.restore(owed, ports, options);
    expect(transientSources(resumed.prepareRequest().messages)).toEqual(['reminder']);
    expect(transientSources(resumed.prepareRequest().messages)).toEqual([]);
    conv.prepareRequest();
    const sent = JSON.parse(JSON.stringify(conv.snapshot()));
    expect(transientSources(AgentConversation.restore(sent, ports, options).prepareRequest().messages)).toEqual([]);
  });

  it('[reminder-one-shot] a malformed snapshot is refused with a reason and nothing restored', () => {
    const { conv, ports } = conversation();
    exchange(conv, 0, 5);
    const good = JSON.parse(JSON.stringify(conv.snapshot()));
    const options = { config: config(), summarizer: extractiveSummarizer(wordTokenizer) };
    const cases: [unknown, RegExp][] = [
      [null, /not an agent conversation snapshot/],
      [{ ...good, version: 2 }, /not an agent conversation snapshot/],
      [{ ...good, reminder: { version: 1, pending: 7, handled: [] } }, /not a reminder state/],
      [{ ...good, pressure: { ...good.pressure, usedTokens: -1 } }, /pressure state/],
      [{ ...good, checkpoints: [{ sourceTurnIds: ['t1'], retainedTurnIds: ['t1'], telemetryBefore: { tokens: 5 }, telemetryAfter: { tokens: 4 }, summary: 's' }] }, /both summarized and retained/],
      [{ ...good, events: [1] }, /events must be a list/],
      [{ ...good, context: { ...good.context, groups: 'x' } }, /snapshot refused/],
    ];
    for (const [snapshot, message] of cases) {
      let error: unknown;
      try {
        AgentConversation.restore(snapshot, ports, options);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ContextError);
      expect((error as Error).message).toMatch(message);
    }
  });
});

describe('AgentConversation: task pressure (denominator max_total_tokens)', () => {
  it('[pressure-reminder-once] [pressure-denominators] at 85% of the task cap one reminder is queued and sent, never twice', async () => {
    // Each request is about 90 tokens; the cap is 1,000, so 85% is crossed on the 10th turn.
    const { conv, events } = conversation({ config: config({ maxTokens: 100_000 }), maxTotalTokens: 1000 });
    const sent: number[] = [];
    for (let n = 0; n < 16; n++) {
      exchange(conv, n, 20);
      const request = conv.prepareRequest();
      if (transientSources(request.messages).includes('pressure')) sent.push(n);
      await conv.afterTurn({ inputTokens: 80, outputTokens: 10 });
    }
    expect(events.filter((e) => e.kind === 'pressure_reminder')).toHaveLength(1);
    const reminder = events.find((e) => e.kind === 'pressure_reminder');
    expect(reminder).toMatchObject({ maxTotalTokens: 1000 });
    expect(reminder?.kind === 'pressure_reminder' && reminder.usedTokens).toBeGreaterThanOrEqual(850);
    expect(sent).toHaveLength(1);
    expect(conv.pressure().reminderSent).toBe(true);
  });

  it('[fallback-bounded] [pressure-reminder-once] under task pressure the deterministic fallback runs once, keeps the task and says it is lossy', async () => {
    const { conv, events } = conversation({ config: config({ maxTokens: 100_000, preserveRecentTurns: 2, summaryMaxTokens: 800 }), maxTotalTokens: 1000 });
    const lease = conv.beginTurn();
    conv.append(lease, user('Task: fix the flaky date parser in src/dates.ts without changing its API.'));
    for (let n = 0; n < 12; n++) {
      exchange(conv, n, 20);
      conv.prepareRequest();
      await conv.afterTurn({ inputTokens: 100, outputTokens: 10 });
      expectValid(conv.manager);
    }
    const fallbacks = events.filter((e) => e.kind === 'compaction' && e.method === 'fallback');
    expect(fallbacks).toHaveLength(1);
    expect(fallbacks[0]).toMatchObject({ trigger: 'task_pressure', outcome: 'compacted' });
    const summary = conv.manager.snapshot().summary?.content ?? '';
    expect(summary).toMatch(/\[fallback-summary v1\] Lossy reminder/);
    expect(summary).toMatch(/Task \(first user message, clipped\): Task: fix the flaky date parser/);
    expect(summary).toMatch(/trust the current repository state and the retained tool output/);
    expect(conv.pressure().fallbackRan).toBe(true);
  });

  it('[fallback-bounded] the fallback summarizer stays within its token cap or fails (and then nothing changes)', () => {
    const summarize = fallbackSummarizer({ tokenizer: wordTokenizer });
    const messages = Array.from({ length: 40 }, (_, i) => ({ id: `m${i}`, role: 'user' as const, content: words(100, `x${i}`) }));
    const text = summarize.summarize({ messages, maxTokens: 120 }) as string;
    expect(wordTokenizer.count(text)).toBeLessThanOrEqual(120);
    expect(() => summarize.summarize({ messages, maxTokens: 3 })).toThrow(/cannot fit 3 tokens/);
  });

  it('[pressure-denominators] without a task cap there is no task pressure, however many tokens were used', async () => {
    const { conv, events } = conversation({ config: config({ maxTokens: 100_000 }) });
    for (let n = 0; n < 12; n++) {
      exchange(conv, n, 20);
      conv.prepareRequest();
      await conv.afterTurn({ inputTokens: 1_000_000 });
    }
    expect(events).toEqual([]);
  });
});

describe('AgentConversation: native compaction (denominator context_window)', () => {
  const checkpoint = (over: Partial<ContextCheckpoint> = {}): ContextCheckpoint => ({ sourceTurnIds: ['t1'], retainedTurnIds: ['t2'], telemetryBefore: { tokens: 900 }, telemetryAfter: { tokens: 200 }, summary: 'earlier work', ...over });

  function nativeRun(answer: () => Promise<{ checkpoint?: ContextCheckpoint }>) {
    const calls: number[] = [];
    const setup = conversation({ native: { compact: () => (calls.push(1), answer()) }, config: config({ maxTokens: 50 }) });
    exchange(setup.conv, 0, 60);
    return { ...setup, calls };
  }

  it('[pressure-denominators] compacts only with telemetry, a known window and >= 85% of it; the local max_tokens rule does not apply', async () => {
    const { conv, calls } = nativeRun(async () => ({}));
    expect(await conv.afterTurn({ inputTokens: 849, contextWindow: 1000 })).toEqual([]);
    expect(await conv.afterTurn({ contextWindow: 1000 })).toEqual([]);
    expect(await conv.afterTurn({ inputTokens: 900 })).toEqual([]);
    expect(calls).toEqual([]);
    const [event] = await conv.afterTurn({ inputTokens: 850, contextWindow: 1000 });
    expect(event).toMatchObject({ trigger: 'context_window', method: 'native', outcome: 'compacted' });
    expect(calls).toHaveLength(1);
  });

  it('[no-fabricated-checkpoint] a native compaction without a checkpoint records none; a valid one is kept; an invalid one is refused, not repaired', async () => {
    const none = nativeRun(async () => ({}));
    const [e1] = await none.conv.afterTurn({ inputTokens: 950, contextWindow: 1000 });
    expect(e1?.checkpoint).toBeUndefined();
    expect(none.conv.checkpoints()).toEqual([]);
    expect(e1?.reason).toMatch(/returned no checkpoint/);

    const valid = nativeRun(async () => ({ checkpoint: checkpoint() }));
    const [e2] = await valid.conv.afterTurn({ inputTokens: 950, contextWindow: 1000 });
    expect(e2?.checkpoint).toEqual(checkpoint());
    expect(valid.conv.checkpoints()).toEqual([checkpoint()]);

    const grown = nativeRun(async () => ({ checkpoint: checkpoint({ telemetryAfter: { tokens: 1200 } }) }));
    const [e3] = await grown.conv.afterTurn({ inputTokens: 950, contextWindow: 1000 });
    expect(e3?.checkpoint).toBeUndefined();
    expect(e3?.checkpointError?.code).toBe('telemetry_grew');
    expect(grown.conv.checkpoints()).toEqual([]);
  });

  it('[fallback-hooks] a native compaction that throws is a failed event and owes no reminder', async () => {
    const { conv } = nativeRun(async () => {
      throw new Error('503 from the runtime');
    });
    const [event] = await conv.afterTurn({ inputTokens: 950, contextWindow: 1000 });
    expect(event).toMatchObject({ outcome: 'failed' });
    expect(event?.reason).toMatch(/503 from the runtime/);
    expect(conv.reminderOwed()).toBe(false);
  });
});

describe('AgentConversation: transients of a request', () => {
  it('[skill-select] [transient-tail] [transient-not-persisted] selected skills, memory and runtime state ride at the tail of one request only', () => {
    const registry = new SkillRegistry(countWords);
    expect(registry.add([
      skill({ name: 'typescript-conventions', selectors: [{ type: 'language', any: ['typescript'] }] }, 'Use strict TypeScript.'),
      skill({ name: 'python-conventions', selectors: [{ type: 'language', any: ['python'] }] }, 'Use ruff.'),
    ])).toEqual([]);
    const { conv } = conversation({ skills: registry });
    exchange(conv, 0, 5);
    const before = bytes(conv.manager);
    const request = conv.prepareRequest({
      selection: { role: 'worker', phase: 'implement', task: 'fix the parser', files: ['src/parser.ts'], languages: [] },
      memory: 'Untrusted historical project observation: the parser is fragile',
      runtime: 'open task: parser',
    });
    expect(request.skills?.selected.map((s) => s.name)).toEqual(['typescript-conventions']);
    expect(conv.lastSkillSelection()?.selected.map((s) => s.name)).toEqual(['typescript-conventions']);
    expect(transientSources(request.messages)).toEqual(['skills', 'memory', 'runtime']);
    expect(kinds(request.messages).slice(-3)).toEqual(['user:transient', 'user:transient', 'user:transient']);
    expect(request.transients[0]?.content).toMatch(/<skill name="typescript-conventions"/);
    expect(request.transients[0]?.content).not.toMatch(/python/);
    expect(request.tokens).toBe(conv.manager.tokens() + request.transients.reduce((n, t) => n + wordTokenizer.count(t.content) + 4, 0));
    expect(bytes(conv.manager)).toBe(before);
    expect(transientSources(conv.prepareRequest().messages)).toEqual([]);
  });
});

describe('AgentConversation: the budget is checked before a provider call', () => {
  it('[checked-before-call] a request says whether it fits max_tokens, transients included', async () => {
    const { conv } = conversation({ config: config({ maxTokens: 200 }) });
    exchange(conv, 0, 20);
    const small = conv.prepareRequest({ runtime: 'state' });
    expect(small.fits).toBe(true);
    const big = conv.prepareRequest({ runtime: words(300, 'state') });
    expect(big.tokens).toBeGreaterThan(200);
    expect(big.fits).toBe(false);
  });
});

describe('AgentConversation: long runs', () => {
  it.each(['truncate', 'compress'] as const)('[provider-valid] [no-orphans] [one-summary] 1,000 turns under %s stay within max_tokens and provider-valid after every turn', async (strategy) => {
    const { conv } = conversation({ config: config({ strategy, maxTokens: 600, preserveRecentTurns: 3, summaryMaxTokens: 120 }) });
    let maxTokens = 0;
    for (let n = 0; n < 1000; n++) {
      const lease = conv.beginTurn();
      conv.append(lease, user(`turn ${n}: ${words(5 + (n % 7) * 6, `u${n}`)}`));
      const calls = Array.from({ length: n % 4 }, (_, k) => ({ id: `c${n}-${k}`, name: 'read', result: words(3 + ((n + k) % 9) * 4, `r${n}${k}`) }));
      conv.append(lease, assistant(`answer ${n}`, calls));
      conv.prepareRequest({ runtime: `turn ${n}` });
      await conv.afterTurn();
      const built = expectValid(conv.manager);
      expect(built.filter((m) => m.role === 'system' && m.kind === 'summary').length).toBeLessThanOrEqual(1);
      maxTokens = Math.max(maxTokens, conv.manager.tokens());
    }
    expect(maxTokens).toBeLessThanOrEqual(600);
  }, 60_000);
});
