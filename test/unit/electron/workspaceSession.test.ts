import { describe, expect, it } from 'vitest';
import { WorkspaceSession } from '../../../electron/main/workspaceSession';

class FakeHost {
  closed = false;
  constructor(readonly dir: string | null) {}
  close() {
    this.closed = true;
  }
}

function session(recent: string[] = [], refuse: (dir: string | null) => string | undefined = () => undefined) {
  const log: string[] = [];
  const saved: string[][] = [];
  const s = new WorkspaceSession<FakeHost>(
    {
      open: (dir) => {
        const why = refuse(dir);
        if (why) throw new Error(why);
        log.push(`open ${dir ?? 'demo'}`);
        return { host: new FakeHost(dir), name: dir ? dir.split('/').pop()! : 'demo' };
      },
      register: (host) => {
        log.push(`register ${host.dir ?? 'demo'}`);
        return () => log.push(`unregister ${host.dir ?? 'demo'}`);
      },
      saveRecent: (file) => saved.push(file.workspaces),
      noteRecent: (dir) => log.push(`os-recent ${dir}`),
    },
    recent,
  );
  return { s, log, saved };
}

describe('desktop workspace session', () => {
  it('opens the new workspace before retiring the old one, and remembers it first in the recent list', () => {
    const { s, log, saved } = session(['/w/old']);
    s.open(null);
    const demo = s.host!;
    s.open('/w/api');
    expect(log).toEqual(['open demo', 'register demo', 'open /w/api', 'unregister demo', 'register /w/api', 'os-recent /w/api']);
    expect(demo.closed).toBe(true);
    expect(s.host!.dir).toBe('/w/api');
    expect(s.workspace).toBe('/w/api');
    expect(s.name).toBe('api');
    expect(s.recent).toEqual(['/w/api', '/w/old']);
    expect(saved).toEqual([['/w/api', '/w/old']]);
  });

  it('a folder that cannot be opened changes nothing: the current host keeps serving, the recent list is as it was', () => {
    const { s, log, saved } = session([], (dir) => (dir === '/w/locked' ? 'The catalog at /w/locked/.strata is held by another Strata.' : undefined));
    s.open('/w/api');
    const before = s.host!;
    expect(() => s.open('/w/locked')).toThrow('held by another Strata');
    expect(s.host).toBe(before);
    expect(before.closed).toBe(false);
    expect(s.workspace).toBe('/w/api');
    expect(s.recent).toEqual(['/w/api']);
    expect(saved).toEqual([['/w/api']]);
    expect(log.filter((l) => l.startsWith('unregister'))).toEqual([]);
  });

  it('going back to the demo keeps the recent list; clearing empties and saves it; closing retires the host', () => {
    const { s, saved } = session();
    s.open('/w/a');
    s.open('/w/b');
    s.open(null);
    expect(s.workspace).toBeNull();
    expect(s.recent).toEqual(['/w/b', '/w/a']);
    s.clearRecent();
    expect(s.recent).toEqual([]);
    expect(saved.at(-1)).toEqual([]);
    const host = s.host!;
    s.close();
    expect(host.closed).toBe(true);
    expect(s.host).toBeUndefined();
  });
});
