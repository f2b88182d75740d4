import { describe, it } from 'vitest';
import { expectEstimatedSaving, expectManagedPlaceholders, expectManagedSavings, expectObservedRecords, expectObservedRunFinished } from '../../support/realClients/gatewayChecks';
import { CLAUDE_CODE, gatewayRuns } from '../../support/realClients/longTaskClients';

// The real Claude Code CLI (2.1.332) through the Strata gateway (engine/host/startGateway.ts) on
// the long task (test/support/realClients/longTask.ts: one `claude -p` turn, 45 tool calls with
// 4-20 KB outputs, the prompt growing to about 190,000 tokens), behind the recording tap, against
// the validating scripted server; once in observe mode and once in manage mode (contextWindow
// 200,000, the default 0.4/0.25 watermarks: `LONG_TASK_MANAGE` in proxies.ts says why). The
// managed run is measured against the observed one. Nothing the client wrote is kept.

describe('[gateway-real-clients-observe] [gateway-real-clients-manage] Claude Code 2.1.332 runs the long task through the Strata gateway, observing then managing', () => {
  const claudeCode = gatewayRuns(CLAUDE_CODE);

  it('[gateway-real-clients-observe] observing, the client finishes the task with the right answer, none refused, and every request reaches the upstream byte for byte with its headers, the answers reach the client unchanged', () => {
    expectObservedRunFinished(claudeCode);
  });

  it("[gateway-real-clients-observe] observing, the gateway's records match the upstream's log: one call per model call with the usage it returned, one session and its main thread, the cache break at the first call and then appended, prefix reuse growing", () => {
    expectObservedRecords(claudeCode);
  });

  it('[gateway-real-clients-manage] managing, the client finishes the task with the right answer and the validating upstream refuses nothing; old results go up as placeholders that keep their call, and the gateway keeps the original of each newest call', () => {
    expectManagedPlaceholders(claudeCode);
  });

  it('[gateway-real-clients-manage] managing, the billed prompt tokens fall at least 40% against observing, and every call that is not a generation boundary reads at least 90% of its prompt from cache unless no cache could (listed), reading all the previous call sent', () => {
    expectManagedSavings(claudeCode);
  });

  it("[gateway-host-savings] managing, the control room's estimated saving is within 25% of the real one (the observe run's bill less the manage run's)", () => {
    expectEstimatedSaving(claudeCode);
  });
});
