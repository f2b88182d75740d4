/**
 * The suite's waiting limits, in one place. A limit here is how long a test may wait before it
 * calls something hung, never how fast the code must be: each is far above what an idle machine
 * needs, so the suite still passes when other processes (a second copy of it, a build) share the
 * cores. A test that checks speed says so with a behaviour (a watchdog fired, a process is gone),
 * not with a stopwatch.
 */

/** Default limit of one test and of one hook (vitest `testTimeout` / `hookTimeout`). */
export const TEST_TIMEOUT_MS = 60_000;

/** How long `waitFor` / `findBy*` (testing-library) and `vi.waitFor` keep retrying. */
export const ASYNC_WAIT_MS = 30_000;

/**
 * Idle timeout a test gives a provider whose loopback server answers (or that the test cancels):
 * it only has to be longer than any answer can take. Tests of the timeout itself set their own
 * short one against a server that never answers.
 */
export const ANSWERING_SERVER_TIMEOUT_MS = 30_000;
