import { describe, expect, it } from 'vitest';
import { historyToRelease, RECENT_FULL_GENERATIONS, RECENT_GENERATIONS } from '../../../../engine/generations/boundedHistory';
import { DROPPED_KEPT, type Generation } from '../../../../engine/generations/Generation';
import { generationOf, generationPool } from '../../../support/generationFixtures';

const pool = generationPool(8);
const history = (n: number): Generation[] => Array.from({ length: n }, (_, k) => generationOf(k + 1, pool));
const numbers = (r: ReturnType<typeof historyToRelease>) => ({ samples: r.samples.map((s) => [s.generation.number, s.keep]), entries: r.entries?.number });

describe('[bounded-history] what an agent\'s history lets go of as a new generation begins', () => {
  it('[bounded-history] the documented sizes', () => {
    expect([RECENT_GENERATIONS, RECENT_FULL_GENERATIONS, DROPPED_KEPT]).toEqual([1, 8, 500]);
  });

  it.each<[number, { samples: number[][]; entries: number | undefined }]>([
    [0, { samples: [], entries: undefined }],
    [1, { samples: [[1, DROPPED_KEPT], [1, 0]], entries: undefined }],
    [RECENT_FULL_GENERATIONS - 1, { samples: [[7, DROPPED_KEPT], [7, 0]], entries: undefined }],
    [RECENT_FULL_GENERATIONS, { samples: [[8, DROPPED_KEPT], [8, 0]], entries: 1 }],
    [RECENT_FULL_GENERATIONS + 3, { samples: [[11, DROPPED_KEPT], [11, 0]], entries: 4 }],
  ])('[bounded-history] with %i generations before it', (n, expected) => {
    expect(numbers(historyToRelease(history(n)))).toEqual(expected);
  });

  it('[bounded-history] a generation released already is not released again', () => {
    const gens = history(RECENT_FULL_GENERATIONS);
    gens[0]!.released = { included: 3, compressed: 0 };
    expect(historyToRelease(gens).entries).toBeUndefined();
  });
});
