import { generationTokens } from '../../../../engine/generations/Generation';
import { describe, expect, it } from 'vitest';
import { ContextLimitError } from '../../../../engine/refresh/ContextLimitError';
import { REASONS_KEPT, SIGNATURES_KEPT } from '../../../../engine/generations/RunStats';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

describe('[run-stats] what a run records per agent', () => {
  it('[run-stats] counts generations, builds, prompt tokens, refresh reasons, retries and repeated actions', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.registerAgent(identity({ agentId: 'worker-2' }));
    for (const i of taskItems()) engine.addItem(i);
    const tokens: number[] = [];
    const build = (phase: string) => tokens.push(generationTokens(engine.build('worker-1', { phase }).generation));

    build('explore');
    engine.addItem(item({ id: 'g1', kind: 'tool_output', class: 'ephemeral', signature: 'grep token' }));
    engine.addItem(item({ id: 'g2', kind: 'tool_output', class: 'ephemeral', signature: 'grep token' }));
    engine.addItem(item({ id: 'g3', kind: 'tool_output', class: 'ephemeral', signature: 'grep token' }));
    engine.addItem(item({ id: 'r1', kind: 'tool_output', class: 'ephemeral', signature: 'read src/a.ts' }));
    // Another agent's repetitions are its own.
    engine.addItem(item({ id: 'o1', kind: 'tool_output', class: 'ephemeral', signature: 'grep token', agentId: 'worker-2' }));
    engine.addItem(item({ id: 'o2', kind: 'tool_output', class: 'ephemeral', signature: 'grep token', agentId: 'worker-2' }));
    build('explore');
    build('implement');
    tokens.push(generationTokens(engine.rebuild('worker-1', 'operator asked').generation));
    expect(engine.maybeRefresh('worker-1', new Error('rate limited'))).toBeUndefined();
    tokens.push(generationTokens(engine.maybeRefresh('worker-1', new ContextLimitError('prompt is too long', 'anthropic'))!.result.generation));
    tokens.push(generationTokens(engine.refresh('worker-1', 'manual refresh').result.generation));
    build('implement');

    expect(engine.stats('worker-1')).toMatchObject({
      generations: 5,
      builds: 7,
      promptTokens: tokens.reduce((a, b) => a + b, 0),
      refreshReasons: ['phase changed: explore → implement', 'operator asked', 'provider context-limit error: prompt is too long', 'manual refresh'],
      retries: 1,
      repeatedActions: 2,
    });
    expect(engine.stats('worker-2')).toMatchObject({ generations: 0, builds: 0, promptTokens: 0, refreshReasons: [], retries: 0, repeatedActions: 1 });
  });

  it('[run-stats] [bounded-history] keeps the newest refresh reasons and counts every generation', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.build('worker-1', { phase: 'implement' });
    for (let k = 0; k < REASONS_KEPT + 20; k++) engine.rebuild('worker-1', `rebuild ${k}`);
    const st = engine.stats('worker-1');
    expect(st.generations).toBe(REASONS_KEPT + 21);
    expect(st.refreshReasons).toHaveLength(REASONS_KEPT);
    expect(st.refreshReasons[0]).toBe('rebuild 20');
    expect(st.refreshReasons.at(-1)).toBe(`rebuild ${REASONS_KEPT + 19}`);
  });

  it('[run-stats] [bounded-history] remembers the newest SIGNATURES_KEPT distinct action signatures per agent', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    engine.addItem(item({ id: 'first', kind: 'tool_output', class: 'ephemeral', signature: 'grep first' }));
    engine.addItem(item({ id: 'recent', kind: 'tool_output', class: 'ephemeral', signature: 'grep recent' }));
    for (let k = 0; k < SIGNATURES_KEPT - 2; k++) engine.addItem(item({ id: `s${k}`, kind: 'tool_output', class: 'ephemeral', signature: `read f${k}` }));
    engine.addItem(item({ id: 'again-recent', kind: 'tool_output', class: 'ephemeral', signature: 'grep recent' }));
    expect(engine.stats('worker-1').repeatedActions).toBe(1);
    // One more distinct signature pushes the oldest ("grep first") out; repeating it is not counted.
    engine.addItem(item({ id: 'new', kind: 'tool_output', class: 'ephemeral', signature: 'grep new' }));
    engine.addItem(item({ id: 'again-first', kind: 'tool_output', class: 'ephemeral', signature: 'grep first' }));
    expect(engine.stats('worker-1').repeatedActions).toBe(1);
  });

  it('[run-stats] [agent-reuse-def] prompt bytes and reused bytes add up over the builds after the first', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    for (const i of taskItems()) engine.addItem(i);
    const texts: string[] = [];
    for (let n = 0; n < 5; n++) {
      engine.addItem(item({ id: `f${n}` }));
      texts.push(engine.build('worker-1', { phase: 'implement', input: `turn ${n}` }).text);
    }
    const s = engine.stats('worker-1');
    expect(s.promptBytes).toBe(texts.slice(1).reduce((n, t) => n + Buffer.byteLength(t), 0));
    expect(s.reusedBytes).toBeGreaterThan(0);
    expect(s.reusedBytes).toBeLessThan(s.promptBytes);
  });
});
