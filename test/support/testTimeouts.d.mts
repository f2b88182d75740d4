/** Default limit of one test and of one hook (vitest `testTimeout` / `hookTimeout`). */
export declare const TEST_TIMEOUT_MS: number;
/** How long `waitFor` / `findBy*` (testing-library) and `vi.waitFor` keep retrying. */
export declare const ASYNC_WAIT_MS: number;
/** Idle timeout a test gives a provider whose loopback server answers (or that the test cancels). */
export declare const ANSWERING_SERVER_TIMEOUT_MS: number;
