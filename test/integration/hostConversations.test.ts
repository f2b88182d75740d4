import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CommandName, CommandResult, ConversationDto, StrataEvent } from '../../engine/contract';
import { Host, type HostOptions } from '../../engine/host';
import type { Message } from '../../engine/conversation/Message';
import { checkAnthropicOrder, checkOpenAIOrder, orphanedResults, unansweredCalls } from '../support/providerValidity';
import { manualClock } from '../../engine/ports/Clock';
import { manualScheduler } from '../../engine/ports/Scheduler';
import { quarterTokenizer } from '../support/engineFixtures';
import { demoDir, tempDir } from '../support/tempDir';

const skillsDir = join(import.meta.dirname, '..', '..', 'resources', 'skills');

let tmp: ReturnType<typeof tempDir> | undefined;
const hosts: Host[] = [];
afterEach(() => {
  for (const h of hosts.splice(0)) h.close();
  tmp?.remove();
  tmp = undefined;
});

function open(over: Partial<HostOptions> = {}): Host {
  tmp ??= tempDir();
  const host = Host.open({
    catalogPath: join(tmp.dir, 'catalog.sqlite'),
    workspaceName: 'demo',
    version: '1',
    demoDir,
    skillsDir,
    clock: manualClock(Date.parse('2026-11-29T12:00:00Z')),
    scheduler: manualScheduler(),
    tokenizer: quarterTokenizer,
    ...over,
  });
  hosts.push(host);
  return host;
}

async function call<K extends CommandName>(host: Host, name: K, args: unknown, events: StrataEvent[] = []): Promise<CommandResult<K>> {
  const envelope = await host.connect((e) => events.push(e)).call(name, args);
  if (!envelope.ok) throw new Error(`${name}: ${envelope.error.code}: ${envelope.error.message}`);
  return envelope.value as CommandResult<K>;
}

async function refused(host: Host, name: CommandName, args: unknown): Promise<{ code: string; message: string }> {
  const envelope = await host.connect(() => {}).call(name, args);
  if (envelope.ok) throw new Error(`${name} was not refused`);
  return envelope.error;
}

/** The persisted conversation as provider-neutral messages, to run the provider checks on what the host serves. */
function messagesOf(c: ConversationDto): Message[] {
  const out: Message[] = [{ id: c.system.id, role: 'system', kind: 'canonical', content: c.system.content }];
  if (c.summary) out.push({ id: c.summary.id, role: 'system', kind: 'summary', content: c.summary.content, sourceTurnIds: c.summary.sourceTurnIds });
  if (c.resumeBridge) out.push({ id: c.resumeBridge.id, role: 'user', content: c.resumeBridge.content });
  for (const g of c.groups) {
    for (const m of g.messages) {
      if (m.role === 'assistant') out.push({ id: m.id, role: 'assistant', content: m.content, toolCalls: m.toolCalls ?? [] });
      else if (m.role === 'tool') out.push({ id: m.id, role: 'tool', content: m.content, toolCallId: m.toolCallId ?? '', isError: m.isError ?? false });
      else out.push({ id: m.id, role: 'user', content: m.content });
    }
  }
  return out;
}

/** Play `n` turns of the demo run. */
const play = async (host: Host, n: number) => {
  for (let i = 0; i < n; i++) await host.stepDemo();
};
const agentsOf = (host: Host) => host.runs.current!.runtime.agentIds();

describe('the host keeps one conversation per agent of the run', () => {
  it('[provider-valid] [no-orphans] every agent has a provider-valid conversation that starts with its task and holds its tool calls with their results', async () => {
    const host = open();
    await play(host, 120);
    const agents = agentsOf(host);
    expect(agents.length).toBeGreaterThan(4);
    let calls = 0;
    for (const agentId of agents) {
      const c = await call(host, 'getConversation', { agentId });
      const messages = messagesOf(c);
      expect(checkOpenAIOrder(messages), agentId).toEqual([]);
      expect(checkAnthropicOrder(messages), agentId).toEqual([]);
      expect(orphanedResults(messages)).toEqual([]);
      expect(unansweredCalls(messages)).toEqual([]);
      expect(c.system.content).toContain(`You are ${agentId}`);
      // Over max_tokens only when the newest turns alone are larger, and then the last event says so.
      if (c.tokens.total > c.config.maxTokens) expect(c.events.at(-1)).toMatchObject({ kind: 'compaction', outcome: 'unchanged', reason: expect.stringMatching(/nothing can be compressed/) });
      if (!c.summary && !c.resumeBridge) expect(c.groups[0]!.messages[0]!.content).toBe(`Task: ${host.engine.identity(agentId).task}`);
      calls += c.groups.flatMap((g) => g.messages.flatMap((m) => m.toolCalls ?? [])).length;
    }
    expect(calls).toBeGreaterThan(10);
  });

  it('[context-config] [compress-atomic] the demo strata.toml (compress, 4,000 tokens, 1 recent turn) is applied: long conversations are compacted into one summary with an audit and a checkpoint', async () => {
    const host = open();
    await play(host, 150);
    const conversations = await Promise.all(agentsOf(host).map((agentId) => call(host, 'getConversation', { agentId })));
    expect(conversations.every((c) => c.config.strategy === 'compress' && c.config.maxTokens === 4000 && c.config.preserveRecentTurns === 1)).toBe(true);
    const compacted = conversations.filter((c) => c.summary !== null);
    expect(compacted.length).toBeGreaterThan(0);
    for (const c of compacted) {
      expect(c.audits.some((a) => a.operation === 'compress' && a.outcome === 'applied')).toBe(true);
      expect(c.events.some((e) => e.kind === 'compaction' && e.outcome === 'compacted')).toBe(true);
      expect(c.checkpoints.length).toBeGreaterThan(0);
      expect(c.summary!.sourceTurnIds.some((t) => c.groups.some((g) => g.turnId === t))).toBe(false);
    }
    const log = host.catalog.recentLog(2000).map((e) => e.message);
    expect(log.some((m) => /^Conversation compress \(budget\) compacted/.test(m))).toBe(true);
  });

  it('[transient-not-persisted] the engine layers and skills reach the request only: the last request lists its transients, the history never holds them', async () => {
    const host = open();
    await play(host, 6);
    const c = await call(host, 'getConversation', { agentId: 'primary' });
    expect(c.lastRequest?.transients.map((t) => t.source)).toContain('runtime');
    expect(c.lastRequest!.transients.every((t) => t.tokens > 0)).toBe(true);
    const persisted = JSON.stringify(c.groups);
    expect(persisted).not.toContain('<skill name=');
    expect(persisted).not.toContain('<now>');
  });

  it('[turn-atomic] reopening the workspace rebuilds the same conversations from the catalog position', async () => {
    const host = open();
    await play(host, 40);
    const before = await call(host, 'getConversation', { agentId: 'primary' });
    host.close();
    hosts.splice(0);
    const reopened = open();
    await reopened.runs.ready();
    const after = await call(reopened, 'getConversation', { agentId: 'primary' });
    expect(after).toEqual(before);
  });

  it('announces a compaction of a conversation to subscribed views', async () => {
    const host = open();
    const events: StrataEvent[] = [];
    await call(host, 'subscribe', { events: ['conversation.changed'] }, events);
    await play(host, 150);
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((e) => e.name === 'conversation.changed' && e.payload.change === 'compaction' && e.payload.tokens <= 4000)).toBe(true);
  });

  it('refuses an unknown agent, naming it, and invalid arguments', async () => {
    const host = open();
    expect(await refused(host, 'getConversation', { agentId: 'nobody' })).toMatchObject({ code: 'not_found', message: expect.stringMatching(/No agent "nobody"/) });
    expect(await refused(host, 'getConversation', { agentId: '' })).toMatchObject({ code: 'invalid_args' });
  });
});

describe('listSkills', () => {
  it('[skill-select] lists the shipped skills and, per agent, the ones its last request selected', async () => {
    const host = open();
    await host.conversations.ready();
    await play(host, 150);
    const skills = await call(host, 'listSkills', {});
    expect(skills.errors).toEqual([]);
    expect(skills.loaded.map((s) => s.name).sort()).toEqual(['changelog', 'git-hygiene', 'python-conventions', 'test-regression', 'typescript-conventions', 'typescript-python-bridge']);
    expect(skills.loaded.every((s) => s.scope === 'shipped')).toBe(true);
    expect(skills.selected.length).toBeGreaterThan(0);
    // The demo works on a TypeScript service: an agent that touched .ts files got the TypeScript conventions.
    const ts = skills.selected.filter((s) => s.names.includes('typescript-conventions'));
    expect(ts.length).toBeGreaterThan(0);
    for (const s of skills.selected) expect(s.skipped.every((k) => !s.names.includes(k.name))).toBe(true);
  });

  it('[skill-errors] [context-config] a workspace with its own skills, a broken one, and an invalid strata.toml: shipped skills still load, every error is listed, the config error names the key', async () => {
    tmp = tempDir();
    const workspace = join(tmp.dir, 'project');
    const write = (rel: string, text: string) => {
      mkdirSync(join(workspace, rel, '..'), { recursive: true });
      writeFileSync(join(workspace, rel), text);
    };
    write('.strata/skills/release/SKILL.md', '---\nname: release-notes\ndescription: Write release notes for every user-facing change.\n---\nList user-facing changes first.\n');
    write('.strata/skills/broken/SKILL.md', '---\nname: Broken Name\n---\nbody\n');
    write('strata.toml', '[context]\nstrategy = "summarize"\n');
    const host = open({ demoDir: undefined, workspaceDir: workspace, catalogPath: join(tmp.dir, 'catalog.sqlite') });
    const skills = await call(host, 'listSkills', {});
    expect(skills.loaded.filter((s) => s.scope === 'workspace').map((s) => s.name)).toEqual(['release-notes']);
    expect(skills.loaded.filter((s) => s.scope === 'shipped')).toHaveLength(6);
    expect(skills.errors).toHaveLength(1);
    expect(skills.errors[0]).toMatchObject({ kind: 'malformed', origin: expect.stringContaining('broken/SKILL.md') });
    const log = host.catalog.recentLog(10).map((e) => `${e.level}: ${e.message}`);
    expect(log.some((l) => /^error: .*strata\.toml.*context\.strategy.*default \[context\] settings are used/.test(l))).toBe(true);
  });

  it('[skill-errors] a workspace skill that reuses a shipped name is refused as a duplicate and the shipped one stays', async () => {
    tmp = tempDir();
    const workspace = join(tmp.dir, 'project');
    mkdirSync(join(workspace, '.strata', 'skills', 'git'), { recursive: true });
    writeFileSync(join(workspace, '.strata', 'skills', 'git', 'SKILL.md'), '---\nname: git-hygiene\ndescription: Our own git rules for every commit.\n---\nSquash.\n');
    const host = open({ demoDir: undefined, workspaceDir: workspace, catalogPath: join(tmp.dir, 'catalog.sqlite') });
    const skills = await call(host, 'listSkills', {});
    expect(skills.errors.map((e) => e.kind)).toEqual(['duplicate']);
    expect(skills.loaded.filter((s) => s.name === 'git-hygiene').map((s) => s.scope)).toEqual(['shipped']);
  });
});
