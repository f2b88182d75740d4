import { describe, expect, it } from 'vitest';
import { TEST_TIMEOUT_MS } from '../../support/testTimeouts.mjs';

describe('the suite limits (renderer-logic project: the renderer’s .ts tests, in Node)', () => {
  it('a test that names no limit of its own may run for TEST_TIMEOUT_MS', ({ task }) => {
    expect(task.timeout).toBe(TEST_TIMEOUT_MS);
  });

  it('runs without a DOM (a test that needs one opts into jsdom with a docblock)', () => {
    expect(typeof document).toBe('undefined');
  });
});
