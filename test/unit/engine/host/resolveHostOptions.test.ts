import { describe, expect, it } from 'vitest';
import { generateDemoRun } from '../../../../engine/demo/generateDemoRun';
import { resolveHostOptions } from '../../../../engine/host/resolveHostOptions';
import { demoWorktreeView } from '../../../../engine/host/worktreeViews';
import { manualClock, systemClock } from '../../../../engine/ports/Clock';
import { manualScheduler } from '../../../../engine/ports/Scheduler';
import { systemScheduler } from '../../../../engine/ports/systemScheduler';
import { defaultSessionRoots } from '../../../../engine/node/traces/live/discoverSessions';
import { demoFiles } from '../../../support/demoFiles';
import { quarterTokenizer } from '../../../support/engineFixtures';
import { demoDir, tempDir } from '../../../support/tempDir';

const base = { catalogPath: '/tmp/c.sqlite', workspaceName: 'w', version: '1' };

describe('resolveHostOptions', () => {
  it('supplies every default once: system clock and scheduler, a tokenizer, memory recall on, this user\'s session folders, no model runs, no demo', () => {
    const s = resolveHostOptions(base);
    expect(s.clock).toBe(systemClock);
    expect(s.scheduler).toBe(systemScheduler);
    expect(s.tokenizer.count('hello world')).toBeGreaterThan(0);
    expect(s.recall).toBe(true);
    expect(s.sessionRoots).toEqual(defaultSessionRoots());
    expect(s.runDeps).toEqual({});
    expect(s.demo).toBeUndefined();
    expect(s.settingsDir).toBeUndefined();
    expect(s.view).toBe(demoWorktreeView);
    expect([s.replayWorkerUrl, s.liveWorkerUrl, s.nativeBinding, s.onInternalError, s.skillsDir]).toEqual([undefined, undefined, undefined, undefined, undefined]);
  });

  it('keeps what the shell gave', () => {
    const clock = manualClock(5);
    const scheduler = manualScheduler(clock);
    const roots = { claude: '/c', codex: '/x' };
    const providerSettings = () => [];
    const url = new URL('file:///out/main/liveWorker.js');
    const s = resolveHostOptions({ ...base, clock, scheduler, tokenizer: quarterTokenizer, memory: false, sessionRoots: roots, runDeps: { providerSettings }, liveWorkerUrl: url, skillsDir: '/skills' });
    expect([s.clock, s.scheduler, s.tokenizer, s.recall, s.sessionRoots, s.runDeps.providerSettings, s.liveWorkerUrl, s.skillsDir]).toEqual([clock, scheduler, quarterTokenizer, false, roots, providerSettings, url, '/skills']);
  });

  it('the demo workspace: settings from the demo folder, its synthetic view, paused unless a tick is given, its script from the shipped files', () => {
    const s = resolveHostOptions({ ...base, demoDir, workspaceDir: '/ignored' });
    expect(s.demo).toEqual({ tickMs: 0 });
    expect(s.settingsDir).toBe(demoDir);
    expect(s.view).toBe(demoWorktreeView);
    expect(resolveHostOptions({ ...base, demoDir, demoTickMs: 250 }).demo).toEqual({ tickMs: 250 });
    expect(s.demoScript()).toEqual(generateDemoRun(demoFiles, 1));
  });

  it('a project folder: its settings and its files as the view; the demo script still comes from the shipped files', () => {
    const tmp = tempDir();
    try {
      const s = resolveHostOptions({ ...base, workspaceDir: tmp.dir });
      expect(s.demo).toBeUndefined();
      expect(s.settingsDir).toBe(tmp.dir);
      expect(s.workspaceDir).toBe(tmp.dir);
      expect(s.view).not.toBe(demoWorktreeView);
      expect(s.demoScript().primary).toEqual(generateDemoRun(demoFiles, 1).primary);
    } finally {
      tmp.remove();
    }
  });

  it('a scaled demo (STRATA_DEMO_AGENTS) has that many agents', () => {
    const script = resolveHostOptions({ ...base, demoDir, demoAgents: 5 }).demoScript();
    expect(script.scripts.size).toBe(5);
  });
});
