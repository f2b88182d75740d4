import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { explainDistFailure } from '../../../electron/cli/distFailure.mjs';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const resources = join(root, 'resources');
const SET_SIZES = [16, 24, 32, 48, 64, 128, 256, 512, 1024];
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface BuilderConfig {
  appId: string;
  productName: string;
  asar: boolean;
  asarUnpack: string[];
  files: string[];
  npmRebuild?: boolean;
  electronFuses?: Record<string, boolean>;
  extraResources: { from: string; to: string }[];
  linux: { target: string[]; icon: string };
  deb?: { maintainer?: string };
  mac: { target: string[]; icon: string };
  win: { target: string[]; icon: string };
}

const config = parse(readFileSync(join(root, 'electron-builder.yml'), 'utf8')) as BuilderConfig;
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  author?: { name?: string; email?: string };
  homepage?: string;
  scripts: Record<string, string>;
};

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? filesUnder(full) : [full];
  });
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

interface DecodedPng {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  /** The inflated IDAT stream: one filter byte, then the row's bytes, per row. */
  raw: Buffer;
}

/** Reads a PNG's chunks (checking each CRC), its IHDR and its inflated image data. */
function decodePng(bytes: Buffer): DecodedPng {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let at = 8;
  let ended = false;
  while (at < bytes.length) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    expect(bytes.readUInt32BE(at + 8 + length), `CRC of ${type}`).toBe(crc32(bytes.subarray(at + 4, at + 8 + length)));
    if (type === 'IHDR') ihdr = data;
    if (type === 'IDAT') idat.push(data);
    at += 12 + length;
    if (type === 'IEND') {
      ended = true;
      break;
    }
  }
  expect(ended).toBe(true);
  expect(at).toBe(bytes.length);
  if (!ihdr) throw new Error('no IHDR chunk');
  return { width: ihdr.readUInt32BE(0), height: ihdr.readUInt32BE(4), bitDepth: ihdr[8]!, colorType: ihdr[9]!, raw: inflateSync(Buffer.concat(idat)) };
}

/** RGBA pixels of an 8-bit RGBA PNG, undoing each row's filter. */
function pixelsOf({ width, height, raw }: DecodedPng): Uint8Array {
  const stride = width * 4;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    for (let i = 0; i < stride; i++) {
      const x = raw[y * (stride + 1) + 1 + i]!;
      const a = i >= 4 ? out[y * stride + i - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + i]! : 0;
      const c = i >= 4 && y > 0 ? out[(y - 1) * stride + i - 4]! : 0;
      const p = a + b - c;
      const paeth = Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c;
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter];
      if (predictor === undefined) throw new Error(`row ${y} has unknown filter ${filter}`);
      out[y * stride + i] = (x + predictor) & 0xff;
    }
  }
  return out;
}

const pngSize = (png: Buffer) => ({ width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('electron-builder.yml', () => {
  it('keeps the app id and product name', () => {
    expect(config.appId).toBe('dev.strata.controlroom');
    expect(config.productName).toBe('Strata');
  });

  it('packs AppImage and deb on Linux, dmg on macOS and nsis on Windows', () => {
    expect(config.linux.target).toEqual(['AppImage', 'deb']);
    expect(config.mac.target).toEqual(['dmg']);
    expect(config.win.target).toEqual(['nsis']);
  });

  it('packs the built code into an asar archive with better-sqlite3 unpacked beside it', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toContain('node_modules/better-sqlite3/**');
    expect(config.files).toEqual(['out/**', 'package.json', '!**/*.map']);
  });

  it('never rebuilds node_modules/better-sqlite3 (the Node build the tests load); it ships the staged Electron build as native/', () => {
    expect(config.npmRebuild).toBe(false);
    expect(config.extraResources).toContainEqual({ from: 'out/native/package', to: 'native' });
    const dist = readFileSync(join(root, 'electron/cli/dist.mjs'), 'utf8');
    expect(dist).toContain("join(root, 'out', 'native', 'package')");
    expect(dist).toContain('ensureElectronBinding');
  });

  it('sets the Electron fuses: no running as Node, no NODE_OPTIONS or --inspect, load only from the checked asar', () => {
    expect(config.electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('ships the demo workspace and the bundled skills as demo/ and skills/ beside the app', () => {
    expect(config.extraResources).toEqual(
      expect.arrayContaining([
        { from: 'resources/demo', to: 'demo' },
        { from: 'resources/skills', to: 'skills' },
      ]),
    );
    for (const { from } of config.extraResources.filter((r) => r.from.startsWith('resources/'))) expect(statSync(join(root, from)).isDirectory()).toBe(true);
    expect(existsSync(join(root, 'resources/demo/strata.toml'))).toBe(true);
    // The demo's repository is content read at run time from demo/workspace (engine/host/readDemoWorkspace.ts).
    expect(existsSync(join(root, 'resources/demo/workspace/docs/adr/0007-sessions.md'))).toBe(true);
    const skills = filesUnder(join(root, 'resources/skills')).filter((f) => f.endsWith('SKILL.md'));
    expect(skills.length).toBeGreaterThan(0);
  });

  it('points every platform at an icon that exists', () => {
    expect(config.linux.icon).toBe('resources/icons');
    expect(config.mac.icon).toBe('resources/icon.icns');
    expect(config.win.icon).toBe('resources/icon.ico');
    for (const icon of [config.linux.icon, config.mac.icon, config.win.icon]) expect(existsSync(join(root, icon)), icon).toBe(true);
    for (const size of SET_SIZES) expect(existsSync(join(root, config.linux.icon, `${size}x${size}.png`))).toBe(true);
  });

  it('gives the deb package the maintainer and homepage electron-builder requires', () => {
    expect(config.deb?.maintainer ?? `${pkg.author?.name} <${pkg.author?.email}>`).toMatch(/^.+ <[^@\s]+@[^@\s]+>$/);
    expect(pkg.author?.email).toMatch(/^[^@\s]+@[^@\s]+$/);
    expect(pkg.homepage).toMatch(/^https:\/\//);
  });

  it('is run by `npm run dist`', () => {
    expect(pkg.scripts.dist).toBe('node electron/cli/dist.mjs');
  });
});

describe('the icon set', () => {
  const pngs = readdirSync(join(resources, 'icons')).filter((f) => f.endsWith('.png'));

  it('holds one PNG per size the Linux target reads, named NxN.png', () => {
    expect(pngs.map((f) => Number(f.split('x')[0])).sort((a, b) => a - b)).toEqual(SET_SIZES);
  });

  it.each(SET_SIZES)('decodes %ipx as an 8-bit RGBA image of the size its name says', (size) => {
    const png = decodePng(readFileSync(join(resources, 'icons', `${size}x${size}.png`)));
    expect([png.width, png.height]).toEqual([size, size]);
    expect(png.bitDepth).toBe(8);
    expect(png.colorType).toBe(6);
    expect(png.raw.length).toBe(size * size * 4 + size);
  });

  it('draws the mark at 1024px: transparent corners, the dark square, and four differently coloured bands down the middle', () => {
    const png = decodePng(readFileSync(join(resources, 'icons', '1024x1024.png')));
    const pixels = pixelsOf(png);
    const at = (x: number, y: number) => Array.from(pixels.subarray((y * 1024 + x) * 4, (y * 1024 + x) * 4 + 4));
    expect(at(0, 0)[3]).toBe(0);
    expect(at(1023, 1023)[3]).toBe(0);
    expect(at(512, 80)).toEqual([0x0f, 0x11, 0x15, 255]);
    const middle = new Set<string>();
    for (let y = 0; y < 1024; y++) middle.add(at(512, y).join(','));
    for (const band of [
      [0x4f, 0x8c, 0xff],
      [0x38, 0xbd, 0xf8],
      [0x34, 0xd3, 0x99],
      [0xfb, 0xbf, 0x24],
    ]) {
      expect(middle).toContain([...band, 255].join(','));
    }
    expect(new Set(Array.from({ length: 1024 * 1024 }, (_, i) => pixels[i * 4 + 3])).size).toBeGreaterThan(2);
  });

  it('uses the 1024px image as resources/icon.png', () => {
    expect(readFileSync(join(resources, 'icon.png')).equals(readFileSync(join(resources, 'icons', '1024x1024.png')))).toBe(true);
  });
});

describe('icon.ico', () => {
  const ico = readFileSync(join(resources, 'icon.ico'));

  it('is an icon directory of PNG entries at 16, 24, 32, 48, 64, 128 and 256 px whose sizes match their images', () => {
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1);
    const count = ico.readUInt16LE(4);
    expect(count).toBe(7);
    const sizes: number[] = [];
    let end = 6 + 16 * count;
    for (let i = 0; i < count; i++) {
      const e = 6 + 16 * i;
      const width = ico[e] || 256;
      const height = ico[e + 1] || 256;
      const length = ico.readUInt32LE(e + 8);
      const offset = ico.readUInt32LE(e + 12);
      expect(ico.readUInt16LE(e + 6)).toBe(32);
      const png = ico.subarray(offset, offset + length);
      const decoded = decodePng(png);
      expect([decoded.width, decoded.height]).toEqual([width, height]);
      sizes.push(width);
      end = Math.max(end, offset + length);
    }
    expect(sizes).toEqual([16, 24, 32, 48, 64, 128, 256]);
    expect(end).toBe(ico.length);
  });
});

describe('icon.icns', () => {
  const icns = readFileSync(join(resources, 'icon.icns'));
  const expected: Record<string, number> = { icp4: 16, icp5: 32, icp6: 64, ic07: 128, ic08: 256, ic09: 512, ic10: 1024 };

  it('is an ICNS file whose length field is its size, holding a PNG of the right size for each type', () => {
    expect(icns.toString('latin1', 0, 4)).toBe('icns');
    expect(icns.readUInt32BE(4)).toBe(icns.length);
    const found: Record<string, number> = {};
    let at = 8;
    while (at < icns.length) {
      const type = icns.toString('latin1', at, at + 4);
      const length = icns.readUInt32BE(at + 4);
      expect(length).toBeGreaterThan(8);
      const png = icns.subarray(at + 8, at + length);
      expect(png.subarray(0, 8).equals(PNG_SIGNATURE), type).toBe(true);
      const { width, height } = pngSize(png);
      expect(width, type).toBe(height);
      found[type] = width;
      at += length;
    }
    expect(at).toBe(icns.length);
    expect(found).toEqual(expected);
  });
});

describe('resources/icons/generate.mjs', () => {
  const out = mkdtempSync(join(tmpdir(), 'strata-icons-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('reproduces the committed icons byte for byte', () => {
    const run = spawnSync(process.execPath, [join(resources, 'icons', 'generate.mjs'), out], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    const names = [...SET_SIZES.map((s) => join('icons', `${s}x${s}.png`)), 'icon.png', 'icon.ico', 'icon.icns'];
    expect(filesUnder(out).map((f) => f.slice(out.length + 1)).sort()).toEqual([...names].sort());
    for (const name of names) expect(readFileSync(join(out, name)).equals(readFileSync(join(resources, name))), name).toBe(true);
  });
});

describe('explainDistFailure', () => {
  const linux = { electronVersion: '45.5.0', platform: 'linux', arch: 'x64' };

  it('names the Electron zip and the host when the runtime download cannot resolve github.com', () => {
    const output = [
      '  • packaging       platform=linux arch=x64 electron=45.5.0 appOutDir=dist/linux-unpacked',
      '  \u001b[31m⨯\u001b[39m Get "https://github.com/electron/electron/releases/download/v45.5.0/electron-v45.5.0-linux-x64.zip": dial tcp: lookup github.com: no such host',
    ].join('\n');
    expect(explainDistFailure(output, linux)).toBe(
      'Strata: packaging needs to download the Electron 45.5.0 runtime for linux-x64 and this machine cannot reach github.com; set ELECTRON_MIRROR / ELECTRON_BUILDER_BINARIES_MIRROR or run where the network is available',
    );
  });

  it('falls back to the runtime or the builder tools when the error names a host but no URL', () => {
    const output = [
      '  • packaging       platform=linux arch=x64 electron=45.5.0 appOutDir=dist/linux-unpacked',
      '  ⨯ getaddrinfo ENOTFOUND github.com  failedTask=build stackTrace=RequestError: getaddrinfo ENOTFOUND github.com',
      '    at ClientRequest.<anonymous> (/work/main/node_modules/got/dist/source/core/index.js:970:111)',
      '    at GetAddrInfoReqWrap.onlookupall [as oncomplete] (node:dns:122:26)',
    ].join('\n');
    const line = explainDistFailure(output, linux);
    expect(line).toContain('the Electron 45.5.0 runtime for linux-x64 or electron-builder tools');
    expect(line).toContain('cannot reach github.com');
  });

  it('names the mirror host when a refused connection gives only an address', () => {
    const output = [
      '  • downloading     url=https://npmmirror.com/mirrors/electron/45.5.0/electron-v45.5.0-darwin-arm64.zip size=98 MB parts=4',
      '  ⨯ connect ECONNREFUSED 203.0.113.9:443  failedTask=build stackTrace=Error: connect ECONNREFUSED 203.0.113.9:443',
    ].join('\n');
    const line = explainDistFailure(output, { electronVersion: '45.5.0', platform: 'darwin', arch: 'arm64' });
    expect(line).toContain('the Electron 45.5.0 runtime for darwin-arm64');
    expect(line).toContain('cannot reach npmmirror.com');
  });

  it('names the electron-builder tool whose download timed out', () => {
    const output = [
      '  • downloading     url=https://github.com/electron-userland/electron-builder-binaries/releases/download/icons@1.2.3/icons-bundle.tar.gz size=4.1 MB parts=1',
      '  ⨯ connect ETIMEDOUT 140.82.121.4:443  failedTask=build stackTrace=RequestError: connect ETIMEDOUT 140.82.121.4:443',
    ].join('\n');
    const line = explainDistFailure(output, linux);
    expect(line).toContain('the electron-builder tool icons-bundle.tar.gz (icons@1.2.3)');
    expect(line).toContain('cannot reach github.com');
    expect(line).toContain('ELECTRON_BUILDER_BINARIES_MIRROR');
  });

  it('says the server answered 404 when the runtime for a platform is not published', () => {
    const output =
      '  ⨯ cannot download "https://github.com/electron/electron/releases/download/v45.5.0/electron-v45.5.0-linux-riscv64.zip", status 404: Not Found';
    const line = explainDistFailure(output, { electronVersion: '45.5.0', platform: 'linux', arch: 'riscv64' });
    expect(line).toContain('the Electron 45.5.0 runtime for linux-riscv64');
    expect(line).toContain('github.com answered 404');
  });

  it('names the Electron headers when node-gyp cannot fetch them to rebuild better-sqlite3', () => {
    // Recorded from `npm run dist` on a machine without internet access.
    const output = [
      '  • preparing       moduleName=better-sqlite3 arch=x64',
      '  ⨯ ',
      'Error: This is most likely not a problem with node-gyp or the package itself and',
      'is related to network connectivity. In most cases you are behind a proxy or have bad ',
      'network settings.',
      '    at go (/work/main/node_modules/node-gyp/lib/install.js:244:21)',
      "  ⨯ node-gyp failed to rebuild '/work/main/node_modules/better-sqlite3'  failedTask=build stackTrace=Error: node-gyp failed to rebuild",
    ].join('\n');
    expect(explainDistFailure(output, linux)).toBe(
      'Strata: packaging needs to download the Electron 45.5.0 headers (to rebuild better-sqlite3 for Electron) and this machine cannot reach www.electronjs.org; run `npm run dist` where the network is available',
    );
  });

  it('says a dmg can only be made on macOS', () => {
    const line = explainDistFailure('  ⨯ Build for macOS is supported only on macOS, please see https://electron.build/multi-platform-build', linux);
    expect(line).toContain('macOS disk image (dmg)');
    expect(line).toContain('only on macOS');
  });

  it('says the Windows installer needs wine when wine is not installed', () => {
    const output = '  • building        target=nsis file=dist/Strata Setup 0.1.0.exe archs=x64\n  ⨯ spawn wine ENOENT  failedTask=build stackTrace=Error: spawn wine ENOENT';
    const line = explainDistFailure(output, linux);
    expect(line).toContain('Windows installer (nsis)');
    expect(line).toContain('`wine`');
    expect(line).toContain('not installed');
  });

  it('otherwise repeats the last error line without the log prefix and the stack trace', () => {
    const output = [
      '  • packaging       platform=linux arch=x64 electron=45.5.0 appOutDir=dist/linux-unpacked',
      '  ⨯ Application entry file "out/main/index.js" in the "/work/main/dist/linux-unpacked/resources/app.asar" does not exist. Seems like a wrong configuration.  failedTask=build stackTrace=Error: Application entry file',
      '    at error (/work/main/node_modules/app-builder-lib/out/asar/asarFileChecker.js:7:12)',
    ].join('\n');
    expect(explainDistFailure(output, linux)).toBe(
      'Strata: packaging for linux-x64 failed: Application entry file "out/main/index.js" in the "/work/main/dist/linux-unpacked/resources/app.asar" does not exist. Seems like a wrong configuration.',
    );
  });

  it('says so when electron-builder printed nothing', () => {
    expect(explainDistFailure('', linux)).toBe('Strata: packaging for linux-x64 failed: electron-builder stopped without printing an error');
  });

  it.each(['', 'spawn wine ENOENT', 'getaddrinfo ENOTFOUND github.com', 'a\nb\nc'])('answers in one line for %j', (output) => {
    expect(explainDistFailure(output, linux)).not.toContain('\n');
  });
});
