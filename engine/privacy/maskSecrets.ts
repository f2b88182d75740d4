// Secret masking for the content of watched sessions.
//
// Strata follows Claude Code and Codex session files live, and those files hold whatever went
// through the agent: a `.env` it read, a `curl -H "Authorization: Bearer …"` it ran, a key pasted
// into a prompt. Whatever Strata shows of that content must go through `maskSecrets` (or
// `maskDeep` for a parsed JSON value) first, so a secret is masked in every view and never stored:
// each one is replaced by `[secret masked: <kind>]`.
//
// What is masked (the kind names the marker):
//   - known token formats, wherever they occur: `anthropic-key` (sk-ant-…), `openai-key` (sk-…,
//     sk-proj-…), `github-token` (ghp_/gho_/ghu_/ghs_/ghr_ + 36, github_pat_…), `gitlab-token`
//     (glpat-…), `aws-access-key` (AKIA/ASIA + 16), `aws-secret` (the 40-character value of an
//     aws_secret_access_key / SecretAccessKey field), `google-api-key` (AIza + 35),
//     `google-oauth-token` (ya29.…), `slack-token` (xoxb-…, xapp-…), `slack-webhook` (the path of
//     a hooks.slack.com URL), `stripe-key` (sk_live_/rk_live_/sk_test_/rk_test_, whsec_),
//     `npm-token` (npm_ + 36), `huggingface-token` (hf_ + 34), `jwt` (eyJ….eyJ….signature);
//   - `private-key`: a PEM private key block from its BEGIN line to its END line (or, when the END
//     line is missing, the BEGIN line and the base64 lines after it);
//   - `bearer-token`: the token after `Bearer ` (16 characters or more), `basic-auth`: the
//     credentials after `Authorization: Basic `;
//   - `url-credentials`: the `user:password` of `scheme://user:password@host` (the rest stays);
//   - `assignment`: the value of a key/value pair whose key names a secret (`password=…`,
//     `api_key: "…"`, `SECRET_TOKEN=…`, `"apiKey": "…"`, `--password=…`, `X-Api-Key: …`); the key
//     and the separator stay. See `isSecretKey` and `isSecretValue` for the heuristic.
//
// What is deliberately not masked: there is no "high entropy" guess. Git SHAs, sha256 sums, UUIDs,
// file paths, base64 payloads and identifiers are left alone unless one of the rules above says
// otherwise, because a view full of false masks is as useless as one that leaks.
//
// Guarantees: text without a secret comes back as the same string; masking is idempotent (a marker
// never matches a rule again, and no rule starts right after a marker); every regular expression
// runs in linear time: each begins at a fixed literal or behind a negative look-behind (so it can
// begin only at the start of a token, not at every character of a long run), has no nested or
// overlapping quantifiers, bounds what it must backtrack over, and the assignment values are read
// by a plain loop. Every rule looks at the original text; overlapping findings merge into one
// marker.

/** The marker that replaces a secret. */
export const secretMarker = (kind: string): string => `[secret masked: ${kind}]`;
const MARKER_PREFIX = '[secret masked: ';

interface Found {
  start: number;
  end: number;
  kind: string;
  /** Rules listed first win when two findings start at the same place. */
  rank: number;
}

interface TokenRule {
  kind: string;
  re: RegExp;
  /** The masked part of a match: its whole text, or the text of its last capture group. */
  lastGroupOnly?: boolean;
  minLength?: number;
}

// A token begins where no token character comes before it, nor a marker: what a marker replaced
// ended just there, so a second pass sees the same boundaries as the first (idempotence).
const AFTER_NO_MARKER = '(?<!\\[secret masked: [a-z-]{1,40}\\])';
const T = `(?<![A-Za-z0-9_-])${AFTER_NO_MARKER}`;

const TOKEN_RULES: TokenRule[] = [
  // A PEM private key: BEGIN line, body (no "--" inside, so the body never runs past the next
  // armor line), END line.
  {
    kind: 'private-key',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[^-]*(?:-(?!-)[^-]*)*-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  // A cut-off block: the BEGIN line and the base64 lines after it (real or JSON-escaped newlines).
  {
    kind: 'private-key',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z0-9+/=]{1,100}(?![^\r\n\\"'`]))*/g,
  },
  { kind: 'anthropic-key', re: new RegExp(`${T}sk-ant-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'openai-key', re: new RegExp(`${T}sk-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'github-token', re: new RegExp(`${T}gh[pousr]_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'github-token', re: new RegExp(`${T}github_pat_[A-Za-z0-9_]{22,}`, 'g') },
  { kind: 'gitlab-token', re: new RegExp(`${T}glpat-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'aws-access-key', re: new RegExp(`(?<![A-Za-z0-9])${AFTER_NO_MARKER}(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`, 'g') },
  {
    kind: 'aws-secret',
    re: new RegExp(
      `${T}((?:aws_?)?secret_?access_?key|aws_?secret_?key)(\\\\?["']?\\s{0,16}[:=]\\s{0,16}\\\\?["']?)([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`,
      'gi',
    ),
    lastGroupOnly: true,
  },
  { kind: 'google-api-key', re: new RegExp(`${T}AIza[A-Za-z0-9_-]{35,}`, 'g') },
  { kind: 'google-oauth-token', re: new RegExp(`${T}ya29\\.[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'slack-token', re: new RegExp(`${T}xox[abposr]-[A-Za-z0-9-]{10,}`, 'g') },
  { kind: 'slack-token', re: new RegExp(`${T}xapp-[0-9]-[A-Za-z0-9-]{10,}`, 'g') },
  { kind: 'slack-webhook', re: /(hooks\.slack\.com\/services\/)([A-Za-z0-9_/-]{20,})/g, lastGroupOnly: true },
  { kind: 'stripe-key', re: new RegExp(`${T}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`, 'g') },
  { kind: 'stripe-key', re: new RegExp(`${T}whsec_[A-Za-z0-9]{20,}`, 'g') },
  { kind: 'npm-token', re: new RegExp(`${T}npm_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'huggingface-token', re: new RegExp(`${T}hf_[A-Za-z0-9]{34,}`, 'g') },
  { kind: 'jwt', re: new RegExp(`${T}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g') },
  { kind: 'bearer-token', re: new RegExp(`${T}(?:[Bb]earer|BEARER)([ \\t]+)([A-Za-z0-9._~+/-]+=*)`, 'g'), lastGroupOnly: true, minLength: 16 },
  {
    kind: 'basic-auth',
    re: new RegExp(`${T}((?:proxy-)?authorization)(\\\\?["']?\\s{0,16}[:=]\\s{0,16}\\\\?["']?)(basic[ \\t]+)([A-Za-z0-9+/]{6,}=*)`, 'gi'),
    lastGroupOnly: true,
  },
];

/** `scheme://user:password@` — the user ends at the first colon, so the split is unambiguous. */
const URL_CREDENTIALS = new RegExp(`(?<![A-Za-z0-9+.-])${AFTER_NO_MARKER}([A-Za-z][A-Za-z0-9+.-]{1,30}://)([^\\s/?#@:'"<>\\\\]*:[^\\s/?#@'"<>\\\\]+)@`, 'g');

/**
 * A key and its separator: an identifier of at most 80 characters (dots and dashes allowed, so
 * `config.apiKey`, `x-api-key`), optionally quoted (also JSON-escaped `\"…\"`) or indexed
 * (`env["API_KEY"]`), then `=`, `:`, `:=` or `=>` (not `==`, `::`). It begins only where no
 * identifier character comes before it (a `--flag` may begin after dashes).
 */
const KEY_AND_SEPARATOR = new RegExp(
  `(?<![\\w$.])(?<![\\w$.]-)${AFTER_NO_MARKER}(?<!\\][-])(?:(\\\\?["'\`])([A-Za-z_$][\\w.$-]{0,79})\\1\\]?|([A-Za-z_$][\\w.$-]{0,79}))([ \\t]{0,16}(?:=>|:=|[:=](?![=:]))[ \\t]{0,16})`,
  'g',
);

const SECRET_WORD_END = /(?:secret|secrets|token|password|passwd|passphrase|apikey|accesskey|secretkey|privatekey)$/;
/** A quick test before splitting: every secret key holds one of these. */
const SECRET_HINT = /secret|token|pass|auth|key/i;
const KEY_QUALIFIERS = new Set([
  'api', 'access', 'secret', 'private', 'client', 'auth', 'signing', 'encryption', 'master', 'account', 'service', 'app',
  'license', 'subscription',
]);

/** The words of an identifier: camelCase, snake_case, kebab-case and dotted paths, lower-cased. */
function keyWords(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

/**
 * A key names a secret when its last word does: secret, token, password, passwd, passphrase,
 * auth, authorization, a word ending in one of these (`authtoken`, `clientsecret`)
 * or in apikey/accesskey/secretkey/privatekey, `pass` after another word (`DB_PASS`), or `key`
 * after api/access/secret/private/client/auth/signing/… (`api_key`, `AWS_SECRET_ACCESS_KEY`).
 * Only the last word counts, so `tokenCount`, `token_url`, `max_tokens`, `author` are not secrets.
 */
export function isSecretKey(key: string): boolean {
  if (!SECRET_HINT.test(key)) return false;
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return false;
  const prev = words[words.length - 2];
  if (last === 'auth' || last === 'authorization' || SECRET_WORD_END.test(last)) return true;
  if (last === 'pass' && prev !== undefined) return true;
  return (last === 'key' || last === 'keys') && prev !== undefined && KEY_QUALIFIERS.has(prev);
}

/** References and placeholders, not literals: `${API_KEY}`, `${{ secrets.X }}`, `$TOKEN`, `%PASS%`, `<your-key>`. */
const REFERENCE = /^(?:\$\{\{?[^{}]*\}\}?|\{\{[^{}]*\}\}|\$[A-Za-z_]\w*|%[A-Za-z_]\w*%|<[^<>]*>)$/;
/** An identifier or member path without digits or other symbols: `hashedPassword`, `DEFAULT_TOKEN`. */
const PLAIN_IDENTIFIER = /^[A-Za-z_$.]+!?$/;
/** A member path: `process.env.API_KEY`, `config.v2Token`, `this.secret!`. */
const MEMBER_PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+!?$/;
const ONE_CHARACTER_REPEATED = /^([^])\1*$/;
const AUTH_SCHEME = /^(?:bearer|basic)[ \t]/i;

/**
 * The value heuristic. A quoted value is a literal: it is a secret when it holds 8 characters or
 * more, unless it is only a reference or placeholder, interpolates (`${…}` inside), is one
 * character repeated (`********`), starts with `Bearer `/`Basic ` (left to those rules) or
 * already holds a marker. An unquoted value (read up to whitespace, a quote, a bracket, `,;&` or a
 * backslash) is a secret when it holds 8 characters or more with at least one digit or symbol, and
 * is not a plain identifier, a member path (`process.env.X`), a call (`getToken(`), a reference,
 * one character repeated, or followed by a marker. So `password: string` (a type) and
 * `token = tokens` stay, `password=hunter2!x` and `password: "correct horse"` are masked.
 */
function isSecretValue(value: string, quoted: boolean, after: string, followedByMarker: boolean): boolean {
  if (value.length < 8 || value.includes(MARKER_PREFIX) || REFERENCE.test(value) || ONE_CHARACTER_REPEATED.test(value)) return false;
  // `Bearer …` / `Basic …` values are left to the bearer-token and basic-auth rules (the scheme stays).
  if (AUTH_SCHEME.test(value)) return false;
  if (quoted) return !value.includes('${');
  if (followedByMarker || PLAIN_IDENTIFIER.test(value) || MEMBER_PATH.test(value)) return false;
  if (after === '(' && /^[\w$.]+$/.test(value)) return false;
  return true;
}

const UNQUOTED_STOPS = new Set([...'"\'`,;&()[]{}<>\\']);
const WHITESPACE = /\s/;
const isUnquotedStop = (c: string): boolean => UNQUOTED_STOPS.has(c) || WHITESPACE.test(c);

/** Reads the value after a separator at `at`: its span, whether quoted, or undefined when there is none. */
function readValue(text: string, at: number): { start: number; end: number; quoted: boolean } | undefined {
  const c = text[at];
  if (c === undefined) return undefined;
  const escaped = c === '\\' && (text[at + 1] === '"' || text[at + 1] === "'");
  if (escaped || c === '"' || c === "'" || c === '`') {
    const quote = escaped ? (text[at + 1] as string) : c;
    const start = at + (escaped ? 2 : 1);
    for (let i = start; i < text.length; i++) {
      const ch = text[i];
      if (ch === '\n' || ch === '\r') return undefined;
      if (escaped) {
        if (ch === '\\' && text[i + 1] === quote) return { start, end: i, quoted: true };
        if (ch === quote) return undefined;
        if (ch === '\\') i++;
      } else if (ch === '\\') {
        i++;
      } else if (ch === quote) {
        return { start, end: i, quoted: true };
      }
    }
    return undefined;
  }
  let end = at;
  while (end < text.length && !isUnquotedStop(text[end] as string)) end++;
  return end > at ? { start: at, end, quoted: false } : undefined;
}

function findAssignments(text: string, rank: number, out: Found[]): void {
  const re = new RegExp(KEY_AND_SEPARATOR.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const key = m[2] ?? (m[3] as string);
    // `scheme://user:password@host` is `url-credentials`, not a `user` key with a value.
    if (!isSecretKey(key) || (m.index >= 3 && text.startsWith('://', m.index - 3))) continue;
    const valueAt = m.index + m[0].length;
    const value = readValue(text, valueAt);
    if (value === undefined) continue;
    const literal = text.slice(value.start, value.end);
    const after = text[value.end] ?? '';
    const followedByMarker = text.startsWith(MARKER_PREFIX, value.end);
    if (!isSecretValue(literal, value.quoted, after, followedByMarker)) continue;
    out.push({ start: value.start, end: value.end, kind: 'assignment', rank });
    re.lastIndex = value.end;
  }
}

function findAll(text: string): Found[] {
  const found: Found[] = [];
  TOKEN_RULES.forEach((rule, rank) => {
    const re = new RegExp(rule.re.source, rule.re.flags);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      let start = m.index;
      let end = start + m[0].length;
      if (rule.lastGroupOnly) {
        const part = m[m.length - 1] ?? '';
        end = start + m[0].length;
        start = end - part.length;
      }
      if (end - start >= (rule.minLength ?? 1)) found.push({ start, end, kind: rule.kind, rank });
      // A rejected match must not hide a match that starts inside it (`Bearer Bearer <token>`).
      else re.lastIndex = m.index + 1;
    }
  });
  const urlRank = TOKEN_RULES.length;
  const url = new RegExp(URL_CREDENTIALS.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = url.exec(text)) !== null) {
    const start = m.index + (m[1] as string).length;
    found.push({ start, end: start + (m[2] as string).length, kind: 'url-credentials', rank: urlRank });
  }
  findAssignments(text, urlRank + 1, found);
  return found;
}

/** The findings sorted and merged: overlapping ones become one span with the kind of the first. */
function merge(found: Found[]): Found[] {
  found.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end);
  const out: Found[] = [];
  for (const f of found) {
    const last = out[out.length - 1];
    if (last !== undefined && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push({ ...f });
  }
  return out;
}

/** `text` with every secret replaced by `[secret masked: <kind>]`; the same string when it holds none. */
export function maskSecrets(text: string): string {
  if (text.length === 0) return text;
  const spans = merge(findAll(text));
  if (spans.length === 0) return text;
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.start) + secretMarker(s.kind);
    at = s.end;
  }
  return out + text.slice(at);
}

/** Whether `maskSecrets` would change `text`. */
export function containsSecret(text: string): boolean {
  return text.length > 0 && findAll(text).length > 0;
}

/**
 * A copy of a JSON-like value (objects, arrays, strings, numbers, booleans, null) with every string
 * masked; object keys stay as they are, other leaves are copied as they are. The input is not changed.
 */
export function maskDeep<T>(value: T): T {
  return copyMasked(value, new WeakMap()) as T;
}

function copyMasked(value: unknown, seen: WeakMap<object, unknown>): unknown {
  if (typeof value === 'string') return maskSecrets(value);
  if (value === null || typeof value !== 'object') return value;
  const done = seen.get(value);
  if (done !== undefined) return done;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    seen.set(value, out);
    for (const item of value) out.push(copyMasked(item, seen));
    return out;
  }
  const out: Record<string, unknown> = {};
  seen.set(value, out);
  for (const key of Object.keys(value)) {
    const masked = copyMasked((value as Record<string, unknown>)[key], seen);
    // A "__proto__" key of parsed JSON is an own property: keep it one, never the prototype.
    Object.defineProperty(out, key, { value: masked, enumerable: true, writable: true, configurable: true });
  }
  return out;
}
