import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { composeParts, prefixHash } from '../../../../engine/prompt/composeParts';
import { identity, item, newEngine, taskItems } from '../../../support/engineFixtures';

const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('composeParts', () => {
  it.each([
    ['all four layers', { L0: 'role\n', L1: 'objective\n', L2: 'finding\n', L3: 'status\n' }, 'role\n<constraints>\nobjective\n</constraints>\n', '<context>\nfinding\n</context>\n<now>\nstatus\n</now>\n'],
    ['no L1', { L0: 'role\n', L1: '', L2: 'finding\n', L3: 'status\n' }, 'role\n', '<context>\nfinding\n</context>\n<now>\nstatus\n</now>\n'],
    ['no L2', { L0: 'role\n', L1: 'objective\n', L2: '', L3: 'status\n' }, 'role\n<constraints>\nobjective\n</constraints>\n', '<now>\nstatus\n</now>\n'],
    ['nothing', { L0: '', L1: '', L2: '', L3: '' }, '', ''],
  ])('[compose-parts] %s: static is L0+L1, dynamic is L2+L3', (_name, layers, stat, dynamic) => {
    const p = composeParts(layers);
    expect(p.static).toBe(stat);
    expect(p.dynamic).toBe(dynamic);
    expect(p.layers).toEqual(layers);
    expect(p.prefixHash).toBe(sha(stat));
  });

  it('[compose-parts] prefixHash is the SHA-256 of the static part only', () => {
    const a = composeParts({ L0: 'role ünïcode 😀\n', L1: 'x\n', L2: 'a\n', L3: 'b\n' });
    const b = composeParts({ L0: 'role ünïcode 😀\n', L1: 'x\n', L2: 'other\n', L3: 'other\n' });
    expect(a.prefixHash).toBe(b.prefixHash);
    expect(a.prefixHash).toBe(sha(a.static));
    expect(prefixHash('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(composeParts({ L0: 'role\n', L1: 'y\n', L2: 'a\n', L3: 'b\n' }).prefixHash).not.toBe(a.prefixHash);
  });

  it('[compose-parts] an engine prompt is static then dynamic, with the layers in cache order', () => {
    const { engine } = newEngine();
    engine.registerAgent(identity());
    for (const i of taskItems()) engine.addItem(i);
    engine.addItem(item({ id: 'f', kind: 'code', class: 'finding' }));
    const r = engine.build('worker-1', { phase: 'implement', input: 'go on' });
    const { L0, L1, L2, L3 } = r.prompt.layers;
    expect(r.text).toBe(r.prompt.static + r.prompt.dynamic);
    expect(r.text).toBe(`${L0}<constraints>\n${L1}</constraints>\n<context>\n${L2}</context>\n<now>\n${L3}</now>\n`);
    expect(r.generation.prefixHash).toBe(sha(r.prompt.static));
  });
});
