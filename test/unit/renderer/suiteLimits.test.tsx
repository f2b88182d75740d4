import { getConfig } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ASYNC_WAIT_MS, TEST_TIMEOUT_MS } from '../../support/testTimeouts.mjs';

describe('the suite limits (renderer project: components, in jsdom)', () => {
  it('a test that names no limit of its own may run for TEST_TIMEOUT_MS, with a DOM', ({ task }) => {
    expect(task.timeout).toBe(TEST_TIMEOUT_MS);
    expect(typeof document).toBe('object');
  });

  it('waitFor and findBy* keep retrying for ASYNC_WAIT_MS (the shared setup), not testing-library’s 1 s', () => {
    expect(getConfig().asyncUtilTimeout).toBe(ASYNC_WAIT_MS);
    expect(ASYNC_WAIT_MS).toBeGreaterThan(1000);
  });
});
