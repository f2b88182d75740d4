import { originalSpan, seeThrough } from './invisibleCharacters';
import { isPlaceholder, isSecretValue, secretWordOf } from './secretValue';

// The one secret detector (`[mask-secrets]`, `[memory-intake]`): `maskSecrets` masks what it
// finds in watched sessions, and the memory intake (`detectUnsafe`) refuses an entry holding any
// of it, so what a view would mask never enters project memory either.
//
// What is found (the kind names the marker):
//   - known token formats, wherever they occur: `anthropic-key` (sk-ant-…), `openai-key` (sk-…,
//     sk-proj-…, with a run of 16+ letters and digits holding both), `github-token`, `gitlab-token`,
//     `aws-access-key` (AKIA/ASIA + 16), `aws-secret` (40 base64 characters assigned to an AWS
//     secret key field, or with `aws` or `secret` in the 100 characters before them),
//     `google-api-key`, `google-oauth-token` (ya29.…), `slack-token` (xox?-…, xapp-…),
//     `slack-webhook`, `stripe-key` (sk_/rk_ live/test, whsec_), `npm-token`, `huggingface-token`,
//     `sendgrid-key` (SG.….…), `twilio-key` (SK + 32 hex), `digitalocean-token`, `shopify-token`,
//     `pypi-token`, `linear-key`, `databricks-token`, `age-secret-key`, `jwt`;
//   - `private-key`: a PEM private key block (BEGIN to END, or a cut-off BEGIN line and the base64
//     lines after it), also base64-encoded (`LS0tLS1CRUdJTi…` that decodes to a private key header);
//   - `bearer-token`: the token after `Bearer ` (16+ characters) or `Authorization: token `, and
//     `basic-auth`: the credentials after `Authorization: Basic `;
//   - `url-credentials`: the `user:password` of `scheme://user:password@host`;
//   - `assignment`: the literal value of a key whose last word names a secret (see `secretValue`).
// Placeholders (`<token>`, `${KEY}`, `your-api-key`, `changeme`, `********`) are not secrets.
// There is no entropy guess: hashes, SHAs, UUIDs, paths and base64 stay.
//
// Invariants: every rule looks at the text without its invisible characters (`seeThrough`), so a
// zero-width space inside a key does not hide it; every expression runs in linear time (each
// begins at a literal or behind a look-behind that lets it begin only at the start of a token, has
// no nested or overlapping quantifiers, and values are read by a plain loop); a marker never
// matches a rule and no rule starts right after one, so masking twice equals masking once.

/** One secret in a text: its span in the original text, its kind, and for `assignment` the key's secret word. */
export interface SecretFinding {
  start: number;
  end: number;
  kind: string;
  detail?: string;
}

interface Found extends SecretFinding {
  /** Rules listed first win when two findings start at the same place. */
  rank: number;
}

interface TokenRule {
  kind: string;
  re: RegExp;
  /** The secret part of a match: its whole text, or the text of its last capture group. */
  lastGroupOnly?: boolean;
  minLength?: number;
  /** A second look for shapes ordinary text can also take. */
  confirm?: (m: RegExpExecArray, text: string) => boolean;
}

const MARKER = '\\[secret masked: [a-z-]{1,40}\\]';
const AFTER_NO_MARKER = `(?<!${MARKER})`;
const T = `(?<![A-Za-z0-9_-])${AFTER_NO_MARKER}`;
/**
 * The start of a token whose prefix is distinctive (`ghp_`, `glpat-`, `hf_`, ...): a `-` may come
 * before it, as in a folder `run-ghp_…`, since no word ends in `-` and goes on with such a prefix.
 */
const P = `(?<![A-Za-z0-9_])${AFTER_NO_MARKER}`;
const SEP = `(\\\\?["']?\\s{0,16}[:=]\\s{0,16}\\\\?["']?)`;

/** A run of 16+ letters and digits holding both: random key material, not kebab-case words. */
const hasRandomRun = (s: string): boolean => (s.match(/[A-Za-z0-9]{16,}/g) ?? []).some((run) => /[0-9]/.test(run) && /[A-Za-z]/.test(run));

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The first bytes of a base64 text as Latin-1 (enough to read a PEM header). */
function decodeBase64Head(s: string, chars: number): string {
  let bits = 0;
  let acc = 0;
  let out = '';
  for (const c of s.slice(0, chars)) {
    const v = B64.indexOf(c);
    if (v < 0) break;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += String.fromCharCode((acc >> bits) & 0xff);
    }
  }
  return out;
}

/**
 * `aws` or `secret` before `at` on the same line, after the last marker, within 200 characters
 * (a cut-off marker at the window's start is dropped). A second pass reads a suffix of what the
 * first read (masking never adds text between a marker and what follows it), so masking stays
 * idempotent.
 */
function awsContext(text: string, at: number): boolean {
  const from = Math.max(0, at - 200);
  let ctx = text.slice(from, at);
  ctx = ctx.slice(ctx.lastIndexOf('\n') + 1);
  const marker = ctx.lastIndexOf('[secret masked: ');
  if (marker >= 0) ctx = ctx.slice(ctx.indexOf(']', marker) + 1);
  else if (from > 0) ctx = ctx.replace(/^[^[\]]*\]/, '');
  return /aws|secret/i.test(ctx);
}

const TOKEN_RULES: TokenRule[] = [
  {
    kind: 'private-key',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----[^-]*(?:-(?!-)[^-]*)*-----END[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----/g,
  },
  {
    kind: 'private-key',
    re: /-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:(?:\r?\n|\\r\\n|\\n)[A-Za-z0-9+/=]{1,100}(?![^\r\n\\"'`]))*/g,
  },
  {
    kind: 'private-key',
    re: new RegExp(`(?<![A-Za-z0-9+/])${AFTER_NO_MARKER}LS0tLS1CRUdJTi[A-Za-z0-9+/]{16,}={0,2}(?:(?:\\r?\\n|\\\\n)[A-Za-z0-9+/=]{1,100}(?![^\\r\\n\\\\"'\`]))*`, 'g'),
    confirm: (m) => /^-----BEGIN[ A-Z0-9]{0,40}PRIVATE KEY/.test(decodeBase64Head(m[0], 80)),
  },
  { kind: 'anthropic-key', re: new RegExp(`${P}sk-ant-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'openai-key', re: new RegExp(`${T}sk-[A-Za-z0-9_-]{20,}`, 'g'), confirm: (m) => hasRandomRun(m[0].slice(3)) },
  { kind: 'github-token', re: new RegExp(`${P}gh[pousr]_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'github-token', re: new RegExp(`${P}github_pat_[A-Za-z0-9_]{22,}`, 'g') },
  { kind: 'gitlab-token', re: new RegExp(`${P}glpat-[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'aws-access-key', re: new RegExp(`(?<![A-Za-z0-9])${AFTER_NO_MARKER}(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])`, 'g') },
  {
    kind: 'aws-secret',
    re: new RegExp(`${T}((?:aws_?)?secret_?access_?key|aws_?secret_?key)${SEP}([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])`, 'gi'),
    lastGroupOnly: true,
  },
  {
    kind: 'aws-secret',
    re: new RegExp(`(?<![A-Za-z0-9/+=])${AFTER_NO_MARKER}[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])`, 'g'),
    confirm: (m, text) => /[a-z]/.test(m[0]) && /[A-Z]/.test(m[0]) && /[0-9]/.test(m[0]) && awsContext(text, m.index),
  },
  { kind: 'google-api-key', re: new RegExp(`${P}AIza[A-Za-z0-9_-]{35,}`, 'g') },
  { kind: 'google-oauth-token', re: new RegExp(`${P}ya29\\.[A-Za-z0-9_-]{20,}`, 'g') },
  { kind: 'slack-token', re: new RegExp(`${P}xox[abposr]-[A-Za-z0-9-]{10,}`, 'g'), confirm: (m) => /[0-9]/.test(m[0]) },
  { kind: 'slack-token', re: new RegExp(`${P}xapp-[0-9]-[A-Za-z0-9-]{10,}`, 'g') },
  { kind: 'slack-webhook', re: /(hooks\.slack\.com\/services\/)([A-Za-z0-9_/-]{20,})/g, lastGroupOnly: true },
  { kind: 'stripe-key', re: new RegExp(`${P}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`, 'g') },
  { kind: 'stripe-key', re: new RegExp(`${P}whsec_[A-Za-z0-9]{20,}`, 'g') },
  { kind: 'npm-token', re: new RegExp(`${P}npm_[A-Za-z0-9]{36,}`, 'g') },
  { kind: 'huggingface-token', re: new RegExp(`${P}hf_[A-Za-z0-9]{34,}`, 'g') },
  { kind: 'sendgrid-key', re: new RegExp(`${T}SG\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])`, 'g') },
  { kind: 'twilio-key', re: new RegExp(`${T}SK[0-9a-f]{32}(?![A-Za-z0-9_-])`, 'g') },
  { kind: 'digitalocean-token', re: new RegExp(`${P}do[opr]_v1_[a-f0-9]{64}`, 'g') },
  { kind: 'shopify-token', re: new RegExp(`${P}shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}`, 'g') },
  { kind: 'pypi-token', re: new RegExp(`${P}pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}`, 'g') },
  { kind: 'linear-key', re: new RegExp(`${P}lin_api_[A-Za-z0-9]{40}`, 'g') },
  { kind: 'databricks-token', re: new RegExp(`${T}dapi[a-f0-9]{32}(?![A-Za-z0-9_])`, 'g') },
  { kind: 'age-secret-key', re: new RegExp(`${P}AGE-SECRET-KEY-1[0-9A-Z]{58}`, 'g') },
  { kind: 'jwt', re: new RegExp(`${T}eyJ[A-Za-z0-9_-]{8,}\\.eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]*`, 'g') },
  {
    kind: 'bearer-token',
    re: new RegExp(`${T}(?:[Bb]earer|BEARER)([ \\t]+)([A-Za-z0-9._~+/-]+=*)`, 'g'),
    lastGroupOnly: true,
    minLength: 16,
    confirm: (m) => !isPlaceholder(m[2] ?? ''),
  },
  {
    kind: 'bearer-token',
    re: new RegExp(`${T}((?:proxy-)?authorization)${SEP}(token[ \\t]+)([A-Za-z0-9._~+/-]{16,}=*)`, 'gi'),
    lastGroupOnly: true,
    confirm: (m) => !isPlaceholder(m[4] ?? ''),
  },
  {
    kind: 'basic-auth',
    re: new RegExp(`${T}((?:proxy-)?authorization)${SEP}(basic[ \\t]+)([A-Za-z0-9+/]{6,}=*)`, 'gi'),
    lastGroupOnly: true,
  },
];

/** `scheme://user:password@` — the user ends at the first colon, so the split is unambiguous. */
const URL_CREDENTIALS = new RegExp(`(?<![A-Za-z0-9+.-])${AFTER_NO_MARKER}([A-Za-z][A-Za-z0-9+.-]{1,30}://)([^\\s/?#@:'"<>\\\\]*:[^\\s/?#@'"<>\\\\]+)@`, 'g');

/** A password of a URL that is a secret: not the user name again, not a placeholder or `${VAR}`. */
function isUrlSecret(credentials: string): boolean {
  const colon = credentials.indexOf(':');
  const user = credentials.slice(0, colon);
  const password = credentials.slice(colon + 1);
  return password !== user && !isPlaceholder(password) && !password.includes('${');
}

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

const UNQUOTED_STOPS = new Set([...'"\'`,;&()[]{}<>\\']);
const isUnquotedStop = (c: string): boolean => UNQUOTED_STOPS.has(c) || /\s/.test(c);

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
    const word = secretWordOf(key);
    // `scheme://user:password@host` is `url-credentials`, not a `user` key with a value.
    if (word === undefined || (m.index >= 3 && text.startsWith('://', m.index - 3))) continue;
    const value = readValue(text, m.index + m[0].length);
    if (value === undefined) continue;
    const literal = text.slice(value.start, value.end);
    const rest = text.slice(value.end, value.end + 64);
    if (!isSecretValue(literal, value.quoted, rest, rest.startsWith('[secret masked: '))) continue;
    out.push({ start: value.start, end: value.end, kind: 'assignment', detail: word, rank });
    re.lastIndex = value.end;
  }
}

function findAll(text: string): Found[] {
  const found: Found[] = [];
  TOKEN_RULES.forEach((rule, rank) => {
    const re = new RegExp(rule.re.source, rule.re.flags);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text)) !== null) {
      const end = m.index + m[0].length;
      const start = rule.lastGroupOnly ? end - (m[m.length - 1] ?? '').length : m.index;
      if (end - start >= (rule.minLength ?? 1) && (!rule.confirm || rule.confirm(m, text))) found.push({ start, end, kind: rule.kind, rank });
      // A rejected match must not hide a match that starts inside it (`Bearer Bearer <token>`).
      else re.lastIndex = m.index + 1;
    }
  });
  const urlRank = TOKEN_RULES.length;
  const url = new RegExp(URL_CREDENTIALS.source, 'g');
  let m: RegExpExecArray | null;
  while ((m = url.exec(text)) !== null) {
    if (!isUrlSecret(m[2] as string)) continue;
    const start = m.index + (m[1] as string).length;
    found.push({ start, end: start + (m[2] as string).length, kind: 'url-credentials', rank: urlRank });
  }
  findAssignments(text, urlRank + 1, found);
  return found;
}

/** The findings sorted and merged: overlapping ones become one span with the kind of the first. */
function merge(found: Found[]): SecretFinding[] {
  found.sort((a, b) => a.start - b.start || a.rank - b.rank || b.end - a.end);
  const out: SecretFinding[] = [];
  for (const f of found) {
    const last = out[out.length - 1];
    if (last !== undefined && f.start < last.end) last.end = Math.max(last.end, f.end);
    else out.push(f.detail === undefined ? { start: f.start, end: f.end, kind: f.kind } : { start: f.start, end: f.end, kind: f.kind, detail: f.detail });
  }
  return out;
}

/** Every secret of `text`, in order, non-overlapping, as spans of `text` itself. */
export function findSecrets(text: string): SecretFinding[] {
  if (text.length === 0) return [];
  const seen = seeThrough(text);
  const found = merge(findAll(seen.text));
  return seen.origin ? found.map((f) => ({ ...f, ...originalSpan(seen, f.start, f.end) })) : found;
}

const KIND_NAMES: Record<string, string> = {
  'private-key': 'a private key block',
  'anthropic-key': 'an Anthropic API key',
  'openai-key': 'an OpenAI API key',
  'github-token': 'a GitHub token',
  'gitlab-token': 'a GitLab token',
  'aws-access-key': 'an AWS access key id',
  'aws-secret': 'an AWS secret access key',
  'google-api-key': 'a Google API key',
  'google-oauth-token': 'a Google OAuth token',
  'slack-token': 'a Slack token',
  'slack-webhook': 'a Slack webhook URL',
  'stripe-key': 'a Stripe secret key',
  'npm-token': 'an npm token',
  'huggingface-token': 'a Hugging Face token',
  'sendgrid-key': 'a SendGrid API key',
  'twilio-key': 'a Twilio API key',
  'digitalocean-token': 'a DigitalOcean token',
  'shopify-token': 'a Shopify access token',
  'pypi-token': 'a PyPI token',
  'linear-key': 'a Linear API key',
  'databricks-token': 'a Databricks token',
  'age-secret-key': 'an age secret key',
  jwt: 'a JSON Web Token',
  'bearer-token': 'a bearer token',
  'basic-auth': 'basic credentials in an Authorization header',
  'url-credentials': 'credentials in a URL',
};

/** A finding in a person's words, without its content: "an OpenAI API key", "a value assigned to a secret field (password)". */
export function describeSecret(f: SecretFinding): string {
  if (f.kind === 'assignment') return `a value assigned to a secret field (${f.detail ?? 'secret'})`;
  return KIND_NAMES[f.kind] ?? `a secret (${f.kind})`;
}
