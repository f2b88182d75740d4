import { describe, expect, it } from 'vitest';
import { TEST_TIMEOUT_MS } from '../../support/testTimeouts.mjs';

// The node project's limits come from vitest.config.ts; a project does not inherit the root's, so
// a limit set only there would leave these tests on vitest's 5 s default.
describe('the suite limits (node project)', () => {
  it('a test that names no limit of its own may run for TEST_TIMEOUT_MS', ({ task }) => {
    expect(task.timeout).toBe(TEST_TIMEOUT_MS);
    expect(TEST_TIMEOUT_MS).toBeGreaterThanOrEqual(60_000);
  });

  it('a limit written on the test still wins', { timeout: 123_000 }, ({ task }) => {
    expect(task.timeout).toBe(123_000);
  });
});
