import { describe, it } from 'vitest';
import { expectBaselineFigures, expectDirectRunFinished, expectSameTaskThroughProxy } from '../../support/realClients/longTaskChecks';
import { CLAUDE_CODE, longTaskRun } from '../../support/realClients/longTaskClients';

// The real Claude Code CLI (2.1.332) through the long task (test/support/realClients/longTask.ts):
// one `claude -p` turn of 45 tool calls with 4-20 KB outputs, against the scripted server in
// validating mode; first directly (the baseline figures a managed gateway run is measured
// against), then through a byte-forwarding proxy behind the recording tap (the seam the gateway
// takes). Nothing it wrote is kept.

describe('[real-client-long-task] Claude Code 2.1.332 runs the long task directly against the validating server', () => {
  const direct = longTaskRun(CLAUDE_CODE);

  it('[real-client-long-task] [real-client-validating] the one turn finishes offline with every scripted tool call, none refused, and the answer the generated logs call for', () => {
    expectDirectRunFinished(direct);
  });

  it('[real-client-long-task] the baseline figures: every call billed, the prompt growing call by call, printed for the managed run to be measured against', () => {
    expectBaselineFigures(direct);
  });
});

describe('[real-client-proxy-seam] Claude Code 2.1.332 runs the long task through a byte-forwarding proxy behind the tap', () => {
  const proxied = longTaskRun(CLAUDE_CODE, 'byte-forwarding');

  it('[real-client-proxy-seam] the client, pointed at the tap, finishes the same task, and per call the upstream received exactly the bytes and end-to-end headers the client sent, and the client the upstream\'s bytes', () => {
    expectSameTaskThroughProxy(proxied);
  });
});
