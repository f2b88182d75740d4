// The `strata` command as a user runs it (issue 21 item 11): package.json's bin, through `npx` in
// the project, after the build this suite made (so the command finds it current and builds nothing).
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';

const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string; bin: Record<string, string> };

test('[cli-bin] package.json names an executable `strata` command that runs the CLI with its arguments', () => {
  const bin = pkg.bin['strata'] ?? '';
  expect(bin).toBe('electron/cli/bin.mjs');
  accessSync(bin, constants.X_OK);
  expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');
  const r = spawnSync(bin, ['help'], { encoding: 'utf8' });
  expect(r.status).toBe(0);
  expect(r.stdout.startsWith(`strata ${pkg.version}: variable context engine for coding agents`)).toBe(true);
  // The build is current: the command says nothing of building, on either stream.
  expect(r.stderr).not.toContain('building');
});

test('[cli-bin] `npx strata health` in the project prints the workspace health as JSON on stdout, nothing else', () => {
  const home = mkdtempSync(join(tmpdir(), 'strata-bin-'));
  try {
    const out = execFileSync('npx', ['--offline', 'strata', 'health'], { encoding: 'utf8', env: { ...process.env, STRATA_HOME: home } });
    const health = JSON.parse(out) as { ok: boolean; version: string; workspace: { name: string; catalogPath: string } };
    expect(health).toMatchObject({ ok: true, version: pkg.version, workspace: { name: 'demo' } });
    expect(health.workspace.catalogPath.startsWith(home)).toBe(true);
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
});
