// Why `electron-builder` failed, as one line a person can act on. Pure: reads the tool's combined
// output and the target, so the wording is tested on recorded failures (test/unit/electron/packaging.test.ts).

const NETWORK = /ENOTFOUND|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENETUNREACH|EHOSTUNREACH|getaddrinfo|cannot resolve|could not resolve|no such host|network is unreachable/i;
const REFUSED = /\b(?:status(?: code)?:? *|HTTP\/[\d.]+ |HTTP error |response code )(403|404)\b|\b(403) Forbidden\b|\b(404) Not Found\b/i;
const DOWNLOAD_HOST = /github\.com|githubusercontent\.com|electronjs\.org|electron[-_]?mirror|npmmirror\.com/i;
// node-gyp's own words when it cannot fetch the headers it compiles against (it names no host).
const GYP_OFFLINE = /related to network connectivity|behind a proxy or have bad\s+network settings/i;
const URL_PATTERN = /https?:\/\/[^\s"'`<>)\]]+/g;
const MIRRORS = 'set ELECTRON_MIRROR / ELECTRON_BUILDER_BINARIES_MIRROR or run where the network is available';

/** Programs electron-builder runs from the system, and the package each one is for. */
const PROGRAMS = {
  wine: 'the Windows installer (nsis)',
  wine64: 'the Windows installer (nsis)',
  hdiutil: 'the macOS disk image (dmg)',
  ar: 'the Debian package (deb)',
  fakeroot: 'the Debian package (deb)',
  dpkg: 'the Debian package (deb)',
  mksquashfs: 'the AppImage',
  python3: 'better-sqlite3 for Electron (node-gyp)',
  python: 'better-sqlite3 for Electron (node-gyp)',
  make: 'better-sqlite3 for Electron (node-gyp)',
  'g++': 'better-sqlite3 for Electron (node-gyp)',
};

const stripAnsi = (s) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, '');

function hostOf(url) {
  try {
    return url ? new URL(url).host : undefined;
  } catch {
    return undefined;
  }
}

/** What a failed download was fetching, named from its URL. */
function downloadTarget(url, { electronVersion, platform, arch }) {
  const runtime = url?.match(/electron-v(\d[\w.-]*?)-([a-z0-9]+)-([a-z0-9_]+)\.zip/);
  if (runtime) return `the Electron ${runtime[1]} runtime for ${runtime[2]}-${runtime[3]}`;
  const tool = url?.match(/electron-builder-binaries\/(?:releases\/download\/)?([^/\s]+)\/([^/\s?#]+)/);
  if (tool) return `the electron-builder tool ${decodeURIComponent(tool[2])} (${decodeURIComponent(tool[1])})`;
  if (url && /headers/.test(url)) return `the Electron ${electronVersion} headers (to rebuild better-sqlite3 for Electron)`;
  if (url && /better-sqlite3/.test(url)) return `a prebuilt better-sqlite3 for Electron ${electronVersion}`;
  return `the Electron ${electronVersion} runtime for ${platform}-${arch} or electron-builder tools`;
}

/** The host a failing line could not reach: named in the error, else the URL's host, else an address. */
function unreachableHost(line, url) {
  const named =
    line.match(/(?:getaddrinfo|ENOTFOUND|EAI_AGAIN)\s+(?:ENOTFOUND\s+|EAI_AGAIN\s+)?([a-z0-9.-]+\.[a-z]{2,})/i) ??
    line.match(/lookup ([a-z0-9.-]+\.[a-z]{2,})/i) ??
    line.match(/resolve (?:host:? )?([a-z0-9.-]+\.[a-z]{2,})/i);
  return named?.[1] ?? hostOf(url) ?? line.match(/\b(?:ECONNREFUSED|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\s+([\d.:a-f]+)/i)?.[1] ?? 'github.com';
}

/** The URL a failing line belongs to: its own, else the nearest one before it, else after it. */
function urlNear(lines, index) {
  for (let d = 0; d < lines.length; d++) {
    for (const i of [index - d, index + d]) {
      const found = lines[i]?.match(URL_PATTERN);
      if (found) return found[found.length - 1];
    }
  }
  return undefined;
}

function downloadFailure(lines, text, target) {
  if (GYP_OFFLINE.test(text)) {
    const host = hostOf(text.match(/https?:\/\/[^\s"']*\/headers\b[^\s"']*/)?.[0]) ?? 'www.electronjs.org';
    return `Strata: packaging needs to download the Electron ${target.electronVersion} headers (to rebuild better-sqlite3 for Electron) and this machine cannot reach ${host}; run \`npm run dist\` where the network is available`;
  }
  const offline = lines.findLastIndex((l) => NETWORK.test(l));
  const refused = offline >= 0 ? -1 : lines.findLastIndex((l, i) => REFUSED.test(l) && DOWNLOAD_HOST.test(urlNear(lines, i) ?? l));
  const failing = Math.max(offline, refused);
  if (failing < 0) return undefined;
  const url = urlNear(lines, failing);
  const what = downloadTarget(url, target);
  const host = unreachableHost(lines[failing], url);
  if (offline >= 0) return `Strata: packaging needs to download ${what} and this machine cannot reach ${host}; ${MIRRORS}`;
  const status = lines[failing].match(REFUSED)?.slice(1).find(Boolean);
  return `Strata: packaging needs to download ${what} and ${host} answered ${status} (not there or not allowed); ${MIRRORS}`;
}

function missingProgram(text) {
  if (/supported only on macOS/i.test(text)) {
    return 'Strata: cannot build the macOS disk image (dmg) here: electron-builder makes macOS packages only on macOS; run `npm run dist` on a Mac';
  }
  const named = [
    ...text.matchAll(/spawn (\S+?) ENOENT/g),
    ...text.matchAll(/(?:^|\s)(\S+): (?:command )?not found/gm),
    ...text.matchAll(/(?:cannot|can't|unable to) find (?:program |executable )?[`'"]?([\w+.-]+)/gi),
  ].map((m) => m[1].split('/').pop());
  const program = named.find((p) => Object.hasOwn(PROGRAMS, p));
  if (program) {
    return `Strata: cannot build ${PROGRAMS[program]} here: it needs \`${program}\`, which is not installed on this machine; install it or run \`npm run dist\` where it is`;
  }
  if (/wine is required/i.test(text)) {
    return 'Strata: cannot build the Windows installer (nsis) here: it needs `wine`, which is not installed on this machine; install it or run `npm run dist` on Windows';
  }
  return undefined;
}

/** The last line that reads as an error, without electron-builder's log prefix and trailing fields. */
function lastErrorLine(lines) {
  const clean = (l) => l.replace(/^[⨯•✖×]\s*/, '').replace(/\s+(failedTask|stackTrace)=.*$/, '').trim();
  const isTrace = (l) => /^at\s/.test(l) || /^[{}[\]]/.test(l);
  const pick =
    lines.findLast((l) => /^[⨯✖×]/.test(l) && clean(l)) ??
    lines.findLast((l) => !isTrace(l) && /error|failed|cannot/i.test(l)) ??
    lines.findLast((l) => !isTrace(l));
  return pick ? clean(pick) : undefined;
}

/**
 * One line saying what packaging could not do and why, from electron-builder's combined output:
 * a program the target needs that this machine lacks, a download it could not make (what it was
 * fetching and the host it could not reach), or else the last error line it printed.
 * @param {string} output stdout and stderr of electron-builder
 * @param {{ electronVersion: string, platform: string, arch: string }} target the Electron version and the platform/arch being packed
 * @returns {string}
 */
export function explainDistFailure(output, target) {
  const lines = stripAnsi(output)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const text = lines.join('\n');
  const known = missingProgram(text) ?? downloadFailure(lines, text, target);
  if (known) return known;
  const last = lastErrorLine(lines);
  return `Strata: packaging for ${target.platform}-${target.arch} failed: ${last ?? 'electron-builder stopped without printing an error'}`;
}
