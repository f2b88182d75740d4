import { describe, expect, it } from 'vitest';
import { generationOverflow, generationTokens } from '../../../../engine/generations/Generation';
import { toGenerationDto } from '../../../../engine/host/engineDtos';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

// Facts are stored once: a generation's whole token count and its overflow follow from its layers
// and budget, and an agent's latest prompt text from its latest prompt's parts.
function setup(budget: number) {
  const { engine } = newEngine();
  engine.registerAgent(identity({ budget }));
  for (const i of taskItems()) engine.addItem(i);
  return engine;
}

describe('derived figures', () => {
  it.each([
    [{ L0: 10, L1: 20, L2: 30, L3: 5 }, 100, 65, 0],
    [{ L0: 10, L1: 20, L2: 30, L3: 5 }, 65, 65, 0],
    [{ L0: 10, L1: 20, L2: 30, L3: 5 }, 60, 65, 5],
    [{ L0: 0, L1: 0, L2: 0, L3: 0 }, 1, 0, 0],
  ])('[tokens-within-budget] [overflow-recorded] layers %o at budget %i: %i tokens, overflow %i', (layerTokens, budget, tokens, overflow) => {
    expect(generationTokens({ layerTokens })).toBe(tokens);
    expect(generationOverflow({ layerTokens, budget })).toBe(overflow);
  });

  it('[overflow-recorded] a build over its budget shows the same tokens and overflow in the generation, its copy and its DTO', () => {
    const engine = setup(600);
    engine.pin(engine.addItem(item({ id: 'big', kind: 'constraint', class: 'task_state', content: 'rule '.repeat(800) })).id);
    const built = engine.build('worker-1', { phase: 'implement' }).generation;
    const copy = engine.generations('worker-1').at(-1)!;
    const dto = toGenerationDto(copy, 0, null);
    const sum = built.layerTokens.L0 + built.layerTokens.L1 + built.layerTokens.L2 + built.layerTokens.L3;
    expect(generationTokens(copy)).toBe(sum);
    expect(dto.tokens).toBe(sum);
    expect(dto.overflow).toBe(sum - 600);
    expect(dto.overflow).toBeGreaterThan(0);
  });

  it('[prefix-reuse-def] the latest prompt text is its parts, static then dynamic, after every build', () => {
    const engine = setup(4000);
    expect(engine.lastPrompt('worker-1')).toBeUndefined();
    for (const phase of ['explore', 'implement', 'implement']) {
      engine.build('worker-1', { phase });
      const parts = engine.lastPromptParts('worker-1')!;
      expect(engine.lastPrompt('worker-1')).toBe(parts.static + parts.dynamic);
    }
  });
});
