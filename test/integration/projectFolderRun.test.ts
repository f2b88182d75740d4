import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HealthDto } from '../../engine/contract';
import { Host } from '../../engine/host';
import { quarterTokenizer } from '../support/engineFixtures';
import { tempDir } from '../support/tempDir';

describe('[run-project-folder] an empty project folder never plays the demo', () => {
  let tmp: ReturnType<typeof tempDir>;
  let host: Host;
  beforeEach(() => {
    tmp = tempDir();
    host = Host.open({ catalogPath: join(tmp.dir, '.strata', 'catalog.sqlite'), workspaceName: 'project', version: '1', workspaceDir: tmp.dir, tokenizer: quarterTokenizer });
  });
  afterEach(() => {
    host.close();
    tmp.remove();
  });

  it('[run-project-folder] health says it is a project folder; Start (the trace driver) is refused with what a run of its own needs, and nothing reaches the catalog', async () => {
    const conn = host.connect(() => {});
    const health = await conn.call('health', {});
    expect(health.ok && (health.value as HealthDto).workspace.projectFolder).toBe(true);
    const started = await conn.call('startRun', { driver: 'trace' });
    expect(started).toMatchObject({ ok: false, error: { code: 'unavailable' } });
    const message = started.ok ? '' : started.error.message;
    expect(message).toContain('project folder, not the demo');
    expect(message).toContain('ANTHROPIC_API_KEY');
    expect(message).toContain('[tools] allow');
    expect(host.catalog.listAgents()).toEqual([]);
    const runs = await conn.call('listRuns', {});
    expect(runs.ok && (runs.value as { runs: unknown[] }).runs).toEqual([]);
  });

  it('[run-project-folder] asked for deliberately (demoInProjectFolder), the demo script plays over the folder', async () => {
    const conn = host.connect(() => {});
    const started = await conn.call('startRun', { driver: 'trace', tickMs: 0, demoInProjectFolder: true });
    expect(started).toMatchObject({ ok: true, value: { run: { status: expect.any(String) } } });
    expect(host.catalog.listAgents().length).toBeGreaterThan(0);
  });
});
