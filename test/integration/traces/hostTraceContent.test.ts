/**
 * `importTraceContent` through the host's contract: trace text a view sends (a picked or dropped
 * file) lands in the catalog exactly as an import by path would, once per SHA-256.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type CommandName, MAX_TRACE_CONTENT_BYTES, type StrataEvent, type TraceDto } from '../../../engine/contract';
import { dumpCatalog } from '../../support/catalogDump';
import { useTraceHost } from '../../support/traceHost';
import { SYNTHETIC_TRACE, writeSyntheticTrace, writeTruncatedTrace } from '../../support/traceFixtures';

describe('importTraceContent through the host', () => {
  const t = useTraceHost(['trace.imported']);
  const call = (name: CommandName, args: unknown) => t.host.connect(() => {}).call(name, args);

  it('[trace-import-content] [trace-import-idempotent] stores and announces a sent trace once, as upload:<name>; the same bytes by path are already imported', async () => {
    const conn = await t.connect();
    const file = writeSyntheticTrace(t.tmp.dir);
    const content = readFileSync(file, 'utf8');
    const first = await conn.call('importTraceContent', { name: 'C:\\Users\\me\\session.json', content });
    expect(first).toMatchObject({
      ok: true,
      value: { alreadyImported: false, trace: { name: 'session.json', sourcePath: 'upload:session.json', format: SYNTHETIC_TRACE.format, steps: SYNTHETIC_TRACE.steps, toolCalls: SYNTHETIC_TRACE.toolCalls, eventCount: SYNTHETIC_TRACE.eventCount } },
    });
    const trace = (first as { value: { trace: TraceDto } }).value.trace;
    expect(t.events).toEqual([{ name: 'trace.imported', payload: { trace } }]);
    // Again by content, and by path: the stored trace, nothing written or announced.
    const before = dumpCatalog(t.catalogPath);
    expect(await conn.call('importTraceContent', { name: 'other.json', content })).toEqual({ ok: true, value: { trace, alreadyImported: true } });
    expect(await conn.call('importTrace', { path: file })).toEqual({ ok: true, value: { trace, alreadyImported: true } });
    expect(dumpCatalog(t.catalogPath)).toEqual(before);
    expect(t.events).toHaveLength(1);
    expect(await call('listTraces', {})).toEqual({ ok: true, value: { traces: [trace] } });
    // The same id an import by path gives for these bytes.
    expect(trace.id).toMatch(/^tr_[0-9a-f]{16}$/);
  });

  it('[trace-import-content] [trace-import-atomic] malformed, empty, unnamed or oversize content is invalid_args saying why; nothing is written or announced', async () => {
    await t.connect();
    const before = dumpCatalog(t.catalogPath);
    const truncated = readFileSync(writeTruncatedTrace(t.tmp.dir), 'utf8');
    expect(await call('importTraceContent', { name: 'truncated.json', content: truncated })).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringContaining('upload:truncated.json:9:') } });
    expect(await call('importTraceContent', { name: 'empty.json', content: '' })).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'content', message: 'the file is empty' }] } });
    expect(await call('importTraceContent', { name: '', content: '{}' })).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'name' }] } });
    expect(await call('importTraceContent', { name: '..', content: '{"messages":[]}' })).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringContaining('not a file name') } });
    expect(await call('importTraceContent', { name: 'x.json', content: '{}', path: '/etc/passwd' })).toMatchObject({ ok: false, error: { code: 'invalid_args' } });
    // Over the cap in UTF-8 bytes though not in characters: the handler's own check.
    const wide = 'é'.repeat(MAX_TRACE_CONTENT_BYTES / 2 + 1);
    expect(await call('importTraceContent', { name: 'big.json', content: wide })).toMatchObject({ ok: false, error: { code: 'invalid_args', message: expect.stringMatching(/big\.json is 16\.0 MiB; traces up to 16 MiB .* by its path/) } });
    // Over the cap in characters: refused by the schema before the handler.
    expect(await call('importTraceContent', { name: 'big.json', content: 'x'.repeat(MAX_TRACE_CONTENT_BYTES + 1) })).toMatchObject({ ok: false, error: { code: 'invalid_args', issues: [{ path: 'content', message: expect.stringContaining('16 MiB') }] } });
    expect(dumpCatalog(t.catalogPath)).toEqual(before);
    expect(t.events).toEqual([]);
  });
});
