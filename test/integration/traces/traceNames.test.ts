/**
 * Trace names are masked wherever they are stored or shown (issue 20): a file named after a key
 * (`ghp_….json`, pasted as a name by mistake) never reaches the catalog or a view in the clear.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TraceDto } from '../../../engine/contract';
import { dumpCatalog } from '../../support/catalogDump';
import { useTraceHost } from '../../support/traceHost';
import { writeSyntheticTrace, writeTruncatedTrace } from '../../support/traceFixtures';

const TOKEN = 'ghp_abcdefghijklmnopqrstuvwxyz0123456789';

describe('[trace-names-masked] trace names are masked where they are stored and shown', () => {
  const t = useTraceHost(['trace.imported']);

  it('[trace-names-masked] [mask-secrets] a trace file named after a token is stored, listed and announced with the token masked', async () => {
    const conn = await t.connect();
    const folder = join(t.tmp.dir, TOKEN);
    mkdirSync(folder);
    const file = writeSyntheticTrace(folder, `${TOKEN}.json`);
    const r = await conn.call('importTrace', { path: file });
    if (!r.ok) throw new Error(r.error.message);
    const { trace } = r.value as { trace: TraceDto };
    expect(trace.name).toBe('[secret masked: github-token].json');
    expect(trace.sourcePath).toBe(join(t.tmp.dir, '[secret masked: github-token]', '[secret masked: github-token].json'));
    const listed = await conn.call('listTraces', {});
    expect(JSON.stringify(listed)).not.toContain(TOKEN);
    expect(JSON.stringify(t.events)).not.toContain(TOKEN);
    expect(t.events.some((e) => e.name === 'trace.imported')).toBe(true);
    expect(JSON.stringify(dumpCatalog(t.catalogPath))).not.toContain(TOKEN);
    // The file itself is read in place and left as it was.
    expect(readFileSync(file, 'utf8')).toContain('off-by-one');
  }, 60_000);

  it('[trace-names-masked] a trace sent by content under a token name, and a refusal naming such a file, are masked too', async () => {
    const conn = await t.connect();
    const sent = await conn.call('importTraceContent', { name: `${TOKEN}.json`, content: readFileSync(writeSyntheticTrace(t.tmp.dir, 'x.json', ' sent'), 'utf8') });
    if (!sent.ok) throw new Error(sent.error.message);
    expect((sent.value as { trace: TraceDto }).trace).toMatchObject({ name: '[secret masked: github-token].json', sourcePath: 'upload:[secret masked: github-token].json' });
    const refused = await conn.call('importTrace', { path: writeTruncatedTrace(t.tmp.dir, `${TOKEN}.json`) });
    expect(refused.ok).toBe(false);
    if (refused.ok) return;
    expect(refused.error.message).toMatch(/\[secret masked: github-token\]\.json:9:\d+: not valid JSON/);
    expect(refused.error.message).not.toContain(TOKEN);
    expect(JSON.stringify(dumpCatalog(t.catalogPath))).not.toContain(TOKEN);
  }, 60_000);
});
