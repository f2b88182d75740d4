import { describe, expect, it } from 'vitest';
import { CONTEXT_WINDOWS, contextWindowOf, WINDOWS_READ } from '../../../../engine/models/contextWindows';

describe('[context-window-table] the per-model context-window table', () => {
  it('[context-window-table] every row cites an https source and the day it was read, and its prompt limit is within its window', () => {
    expect(WINDOWS_READ).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const row of CONTEXT_WINDOWS) {
      expect(row.source, row.models).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]+\//);
      expect(row.read, row.models).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(row.prompt, row.models).toBeGreaterThan(0);
      expect(row.prompt, row.models).toBeLessThanOrEqual(row.window);
      if (row.extended) {
        expect(row.extended.prompt, row.models).toBeGreaterThan(row.prompt);
        expect(row.extended.source, row.models).toMatch(/https:\/\//);
      }
      expect(row.pattern.global || row.pattern.sticky, row.models).toBe(false);
    }
  });

  it('[context-window-table] Anthropic holds the prompt against the whole window; OpenAI keeps the maximum output free', () => {
    for (const row of CONTEXT_WINDOWS.filter((r) => r.provider === 'anthropic')) expect(row.prompt, row.models).toBe(row.window);
    for (const row of CONTEXT_WINDOWS.filter((r) => r.provider === 'openai')) {
      expect(row.prompt, row.models).toBe(row.window - 128_000);
      expect(row.note, row.models).toMatch(/128,000 max output tokens/);
    }
  });

  // Names as the recordings and clients send them; the figures as the sources list them.
  it.each([
    ['claude-opus-4-6', 'Claude Opus 4.6', 1_000_000, undefined],
    ['claude-opus-4.6', 'Claude Opus 4.6', 1_000_000, undefined],
    ['claude-sonnet-4-6', 'Claude Sonnet 4.6', 1_000_000, undefined],
    ['claude-opus-4-5-20251101', 'Claude Opus 4.5', 200_000, undefined],
    ['claude-haiku-4-5-20251001', 'Claude Haiku 4.5', 200_000, undefined],
    ['claude-sonnet-4-5-20250929', 'Claude Sonnet 4.5', 200_000, 1_000_000],
    ['claude-sonnet-4-20250514', 'Claude Sonnet 4', 200_000, 1_000_000],
    ['claude-opus-4-1', 'Claude Opus 4, 4.1', 200_000, undefined],
    ['claude-opus-5-5', 'Claude Opus 5.5', 1_000_000, undefined],
    ['claude-opus-5', 'Claude Opus 5', 1_000_000, undefined],
    ['gpt-5.4', 'GPT-5.4', 922_000, undefined],
    ['gpt-5.3-codex', 'GPT-5.3-Codex', 272_000, undefined],
    ['gpt-5-codex', 'GPT-5, GPT-5-Codex', 272_000, undefined],
    ['gpt-5', 'GPT-5, GPT-5-Codex', 272_000, undefined],
    ['deepseek-chat', 'deepseek-chat, deepseek-reasoner', 64_000, undefined],
    ['deepseek/deepseek-reasoner', 'deepseek-chat, deepseek-reasoner', 64_000, undefined],
    ['gemini-2.5-pro', 'Gemini 2.5 Pro', 1_048_576, undefined],
  ])('[context-window-table] %s has the window of %s: a prompt of at most %i tokens (a beta: %s)', (model, row, prompt, extended) => {
    const w = contextWindowOf(model);
    expect(w?.models).toBe(row);
    expect(w?.prompt).toBe(prompt);
    expect(w?.extended?.prompt).toBe(extended);
  });

  it.each(['gpt-5.5', 'gpt-5.2', 'gpt-5-mini', 'claude-opus-4-7', 'claude-made-up-1', 'deepseek-v4', 'gemini-3-pro', 'opus-4-55', ''])('[context-window-table] %s has no known window (no row guesses one)', (model) => {
    expect(contextWindowOf(model)).toBeUndefined();
  });

  it('[context-window-table] a version number is matched whole: opus-4 is not opus-4-5, gpt-5 is not gpt-5-4', () => {
    expect(contextWindowOf('claude-opus-4-20250514')?.models).toBe('Claude Opus 4, 4.1');
    expect(contextWindowOf('claude-opus-4-5')?.models).toBe('Claude Opus 4.5');
    expect(contextWindowOf('gpt-5')?.models).toBe('GPT-5, GPT-5-Codex');
    expect(contextWindowOf('gpt-5.4')?.models).toBe('GPT-5.4');
    expect(contextWindowOf(undefined)).toBeUndefined();
  });
});
