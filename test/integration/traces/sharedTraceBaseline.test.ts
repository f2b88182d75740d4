/**
 * Every shared trace, read in place, imports to the recorded events (`sharedTraceBaseline.json`):
 * first recorded from the code before the Gemini CLI, OpenCode and ATIF importers and detection by
 * evidence, then once more when issue 19 gave client-injected context, prefixes and billed totals
 * events of their own (the usage and tool-call events of every trace stayed as they were), so any
 * later change to what an older file imports to fails here. Skipped, with the reason, when the
 * folder is absent; STRATA_TRACES_DIR names another one.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { importTraceFile } from '../../../engine/node/traces/importTraceFile';
import { traceCounts } from '../../../engine/traces/traceCounts';

interface Recorded {
  formatBefore: string;
  steps: number;
  toolCalls: number;
  eventCount: number;
  types: Record<string, number>;
  digest: string;
}

const tracesDir = process.env.STRATA_TRACES_DIR ?? resolve(import.meta.dirname, '../../../../shared/traces');
const baseline = JSON.parse(readFileSync(join(import.meta.dirname, 'sharedTraceBaseline.json'), 'utf8')) as { traces: Record<string, Recorded> };
const present = Object.entries(baseline.traces).filter(([name]) => existsSync(join(tracesDir, name)));
if (present.length === 0) console.warn(`sharedTraceBaseline: SKIPPED, none of the ${Object.keys(baseline.traces).length} shared traces is under ${tracesDir} (set STRATA_TRACES_DIR to the shared traces folder)`);
else if (present.length < Object.keys(baseline.traces).length) console.warn(`sharedTraceBaseline: ${Object.keys(baseline.traces).length - present.length} shared traces are missing under ${tracesDir}; checking the ${present.length} present`);

describe.skipIf(present.length === 0)('shared traces import as before', () => {
  it.each(present)('[trace-shared-unchanged] %s', (name, recorded) => {
    const t = importTraceFile(join(tracesDir, name));
    const types: Record<string, number> = {};
    for (const e of t.events) types[e.type] = (types[e.type] ?? 0) + 1;
    const digest = createHash('sha256')
      .update(JSON.stringify(t.events.map((e) => ({ ...e, source: { ...e.source, file: '' } }))))
      .digest('hex')
      .slice(0, 16);
    expect({ ...traceCounts(t.events), types, digest }).toEqual({ steps: recorded.steps, toolCalls: recorded.toolCalls, eventCount: recorded.eventCount, types: recorded.types, digest: recorded.digest });
    // each folder is named after its format (SOURCES.md); mini-swe-agent runs used to be labelled openai-messages-json
    const folder = name.split('/')[0];
    expect(t.format).toBe(folder);
    expect(recorded.formatBefore === t.format || (folder === 'mini-swe-agent-traj-json' && recorded.formatBefore === 'openai-messages-json')).toBe(true);
  });
});
