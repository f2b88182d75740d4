import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultUserDataDir, locateWorkspace } from '../../../../engine/node/workspace/paths';

describe('workspace location', () => {
  it.each([
    ['linux', { HOME: '/home/u' }, '/home/u/.config/Strata'],
    ['linux', { HOME: '/home/u', XDG_CONFIG_HOME: '/x' }, '/x/Strata'],
    ['darwin', { HOME: '/Users/u' }, '/Users/u/Library/Application Support/Strata'],
    ['win32', { HOME: '/h', APPDATA: '/appdata' }, join('/appdata', 'Strata')],
  ] as const)('uses the %s user data folder Electron uses', (platform, env, expected) => {
    expect(defaultUserDataDir(env, platform)).toBe(expected);
  });

  it('prefers --workspace, then STRATA_HOME, then the user data dir', () => {
    expect(locateWorkspace({ workspace: '/p/shop', env: { STRATA_HOME: '/s' } })).toEqual({
      name: 'shop',
      catalogPath: join(resolve('/p/shop'), '.strata', 'catalog.sqlite'),
      demo: false,
    });
    expect(locateWorkspace({ env: { STRATA_HOME: '/s' }, userDataDir: '/u' })).toEqual({
      name: 'demo',
      catalogPath: join(resolve('/s'), 'workspaces', 'demo', 'catalog.sqlite'),
      demo: true,
    });
    expect(locateWorkspace({ env: {}, userDataDir: '/u' }).catalogPath).toBe(join(resolve('/u'), 'workspaces', 'demo', 'catalog.sqlite'));
  });
});
