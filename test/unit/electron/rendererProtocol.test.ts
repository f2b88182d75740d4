import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isTrustedRendererUrl,
  rendererEntry,
  rendererOrigin,
  serveRendererRequest,
} from '../../../electron/main/rendererProtocol';
import { rendererCsp } from '../../../electron/shared/csp';

describe('renderer origin', () => {
  it('is app://strata with index.html as the entry', () => {
    expect(rendererOrigin).toBe('app://strata');
    expect(rendererEntry).toBe('app://strata/index.html');
  });
});

describe('isTrustedRendererUrl', () => {
  it.each([['app://strata/index.html'], ['app://strata/'], ['app://strata/assets/app.js?x=1#top'], [rendererEntry]])(
    'trusts %s',
    (url) => {
      expect(isTrustedRendererUrl(url)).toBe(true);
    },
  );

  it.each([
    ['app://evil/'],
    ['app://evil/index.html'],
    ['app://strata.evil/index.html'],
    ['app://strata:8080/index.html'],
    ['apps://strata/index.html'],
    ['file:///index.html'],
    ['file:///work/main/out/renderer/index.html'],
    ['http://127.0.0.1/'],
    ['http://strata/index.html'],
    ['https://strata/index.html'],
    ['about:blank'],
    ['devtools://devtools/bundled/inspector.html'],
    ['not a url'],
    [''],
    ['strata/index.html'],
  ])('refuses %j', (url) => {
    expect(isTrustedRendererUrl(url)).toBe(false);
  });
});

describe('serveRendererRequest', () => {
  let dir: string;
  const html = '<!doctype html><title>Strata</title>';

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'strata-renderer-'));
    mkdirSync(join(dir, 'renderer', 'assets'), { recursive: true });
    writeFileSync(join(dir, 'renderer', 'index.html'), html);
    writeFileSync(join(dir, 'renderer', 'assets', 'app.js'), 'export {};');
    writeFileSync(join(dir, 'secret.txt'), 'secret');
  });

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the entry with 200, its content type and the CSP header', async () => {
    const res = await serveRendererRequest(join(dir, 'renderer'), rendererEntry);
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(html);
    expect(res.headers.get('Content-Type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('X-Content-Type-Options')).toBe('nosniff');
    const csp = res.headers.get('Content-Security-Policy');
    expect(csp).toBe(rendererCsp);
  });

  it('sends a CSP that allows only its own scripts and never eval', async () => {
    const res = await serveRendererRequest(join(dir, 'renderer'), 'app://strata/assets/app.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('Content-Type')).toBe('text/javascript; charset=utf-8');
    const csp = res.headers.get('Content-Security-Policy') ?? '';
    const directives = new Map(csp.split(';').map((d) => {
      const [name = '', ...values] = d.trim().split(/\s+/);
      return [name, values] as const;
    }));
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/https?:/);
  });

  it('serves / as index.html', async () => {
    const res = await serveRendererRequest(join(dir, 'renderer'), 'app://strata/');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(html);
  });

  it.each([['app://evil/index.html'], ['app://strata.evil/index.html'], ['app://other/assets/app.js']])(
    'answers 404 for another host (%s)',
    async (url) => {
      const res = await serveRendererRequest(join(dir, 'renderer'), url);
      expect(res.status).toBe(404);
      expect(res.headers.get('Content-Security-Policy')).toBeNull();
    },
  );

  it.each([['app://strata/missing.html'], ['app://strata/..%2fsecret.txt'], ['app://strata/%2e%2e/secret.txt']])(
    'answers 404 for a missing or outside file (%s)',
    async (url) => {
      const res = await serveRendererRequest(join(dir, 'renderer'), url);
      expect(res.status).toBe(404);
      expect(await res.text()).toBe('Not found');
    },
  );
});
