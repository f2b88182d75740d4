/**
 * The `strata` command line from source, for tests that run it as a process:
 * `node --import tsx test/support/runStrataCli.ts <command> [options]`. Defines the version the
 * build would inject (`__STRATA_VERSION__`), then runs the CLI's entry module.
 */
export {};

(globalThis as { __STRATA_VERSION__?: string }).__STRATA_VERSION__ = '0.0.0-test';
await import('../../electron/cli/strata');
