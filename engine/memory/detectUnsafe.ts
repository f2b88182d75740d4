/**
 * Why a string may not enter project memory, or `undefined` when it may. Memory is replayed into
 * later prompts and kept in the catalog file, so it must never hold a credential, and never a
 * control or bidirectional character that could hide text from the person reading the inspector
 * or rewrite what the model sees. The reason names the kind of content and never includes it:
 * reasons are logged and shown, and echoing the secret would leak it there instead.
 *
 * Invariant: `detectUnsafe` is total and deterministic; every pattern is anchored on a prefix or a
 * delimiter and bounded, so a 4000-character body costs a few linear scans. Shapes are matched
 * only where they are distinctive (a vendor prefix, a fixed length, a secret-named field), which
 * keeps ordinary code, hex digests, UUIDs and base64 data out of the net.
 */
export function detectUnsafe(text: string): string | undefined {
  const control = CONTROL.exec(text);
  if (control) return `contains control character ${codePoint(control[0])}`;
  const bidi = BIDI.exec(text);
  if (bidi) return `contains a bidirectional control character ${codePoint(bidi[0])}`;
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) return `contains an unpaired surrogate ${codePoint(surrogate[0])}`;
  for (const rule of TOKEN_RULES) {
    for (const match of text.matchAll(rule.pattern)) {
      if (!rule.confirm || rule.confirm(match)) return `contains ${rule.kind}`;
    }
  }
  return secretAssignment(text);
}

/** C0 controls except TAB, LF and CR, then DEL and the C1 block. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Embeddings, overrides and isolates: the characters of "Trojan Source" reordering. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** A surrogate without its partner cannot be stored as UTF-8 without being rewritten. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (ch: string): string => `U+${ch.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

interface TokenRule {
  /** How the reason names the content, with its article. */
  kind: string;
  /** Global, so `matchAll` can walk every candidate. */
  pattern: RegExp;
  /** A second look for shapes that ordinary text can also take. */
  confirm?: (match: RegExpExecArray) => boolean;
}

/** A run of 16+ letters and digits holding both: random key material, not kebab-case words. */
const hasRandomRun = (s: string): boolean =>
  (s.match(/[A-Za-z0-9]{16,}/g) ?? []).some((run) => /[0-9]/.test(run) && /[A-Za-z]/.test(run));

const TOKEN_RULES: readonly TokenRule[] = [
  { kind: 'a private key block', pattern: /-----BEGIN [A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g },
  { kind: 'an AWS access key id', pattern: /(?<![A-Za-z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Za-z0-9])/g },
  { kind: 'an Anthropic API key', pattern: /(?<![\w-])sk-ant-[\w-]{20,}/g },
  {
    kind: 'an OpenAI API key',
    pattern: /(?<![\w-])sk-(?:proj-|svcacct-|admin-)?([\w-]{20,})/g,
    confirm: (m) => hasRandomRun(m[1] ?? ''),
  },
  { kind: 'a GitHub token', pattern: /(?<!\w)(?:gh[pousr]_[A-Za-z0-9]{36,}|github_pat_\w{22,})/g },
  { kind: 'a GitLab token', pattern: /(?<![\w-])glpat-[\w-]{20,}/g },
  { kind: 'an npm token', pattern: /(?<!\w)npm_[A-Za-z0-9]{36}(?!\w)/g },
  { kind: 'a Slack token', pattern: /(?<![\w-])xox[abprs]-[A-Za-z0-9-]{10,}/g, confirm: (m) => /[0-9]/.test(m[0]) },
  { kind: 'a Google API key', pattern: /(?<![\w-])AIza[\w-]{35}(?![\w-])/g },
  { kind: 'a Stripe secret key', pattern: /(?<!\w)[rs]k_(?:live|test)_[A-Za-z0-9]{16,}/g },
  { kind: 'a JSON Web Token', pattern: /(?<![\w-])eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]*/g },
  {
    kind: 'a bearer token in an Authorization header',
    pattern: /\bauthorization["']?\s*[:=]\s*["']?(?:bearer|token)\s+([\w.~+/=-]{20,})/gi,
    confirm: (m) => !isPlaceholder(m[1] ?? ''),
  },
  {
    kind: 'basic credentials in an Authorization header',
    pattern: /\bauthorization["']?\s*[:=]\s*["']?basic\s+([A-Za-z0-9+/=]{12,})/gi,
    confirm: (m) => !isPlaceholder(m[1] ?? ''),
  },
  {
    kind: 'credentials in a URL',
    pattern: /\b[a-z][a-z0-9+.-]{1,20}:\/\/([^\s/:@"'<>]{0,64}):([^\s/@"'<>]{4,128})@/gi,
    confirm: (m) => m[2] !== m[1] && !isPlaceholder(m[2] ?? ''),
  },
];

/** A field whose name says it holds a secret, then an assignment operator (not `==`). */
const SECRET_FIELD =
  /(password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?key)([\w.-]{0,40})["']?[ \t]*(?::=|=>|[:=](?![=>]))[ \t]*/gi;
/** A name that describes the secret rather than holding it: `secretName`, `PASSWORD_FILE`. */
const METADATA_SUFFIX =
  /(?:names?|path|file|dir|url|uri|length|len|size|ttl|min|max|count|policy|field|type|env|var|header|id|ref|regex|pattern|rules?|hint|label|prompt|expiry|expires(?:at)?|expiration|strength|version|prefix|suffix|format|store|manager|provider|source|mode|enabled|required)$/i;
/** The name of an environment variable, as prose quotes it: `OPENAI_API_KEY`. */
const ENV_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
const QUOTED = /^(?:"([^"\r\n]{0,1000})"|'([^'\r\n]{0,1000})'|`([^`\r\n]{0,1000})`)/;
const UNQUOTED = /^[^\s"'`,;(){}[\]<>]{1,1000}/;
/** What may follow a bare value at the end of a setting (not the next word of a sentence). */
const SETTING_END = /^[ \t]*(?:[\r\n,;)}\]#&|]|$)/;

/** The first secret-named field assigned a literal that is neither a placeholder nor a reference. */
function secretAssignment(text: string): string | undefined {
  for (const field of text.matchAll(SECRET_FIELD)) {
    if (METADATA_SUFFIX.test(field[2] ?? '')) continue;
    const rest = text.slice(field.index + field[0].length, field.index + field[0].length + 1100);
    const quoted = QUOTED.exec(rest);
    let value: string;
    if (quoted) {
      value = quoted[1] ?? quoted[2] ?? quoted[3] ?? '';
      // Whitespace means prose (a label or a description); `${` and `{{` mean a template.
      if (/\s|\$\{|#\{|\{\{/.test(value) || ENV_NAME.test(value)) continue;
      // Backticks in prose mark code: `config.apiKey` names a value rather than holding it.
      if (quoted[3] !== undefined && isReference(value)) continue;
    } else {
      value = UNQUOTED.exec(rest)?.[0] ?? '';
      const after = rest.slice(value.length);
      if (value === '' || after.startsWith('(') || isReference(value)) continue;
      if (/^[A-Za-z]+$/.test(value) && !SETTING_END.test(after)) continue;
    }
    if (value.length >= 8 && !isPlaceholder(value) && !isPathLike(value)) {
      return `contains a value assigned to a secret field (${(field[1] ?? '').toLowerCase()})`;
    }
  }
  return undefined;
}

/** A variable, member or constant in code: `config.db.password`, `userPassword`, `API_KEY`. */
function isReference(v: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/.test(v)) return true;
  return /^[A-Za-z_$]+$/.test(v) && (/[a-z][A-Z]/.test(v) || v.includes('_') || /^[A-Z$]+$/.test(v));
}

const isPathLike = (v: string): boolean => /^(?:~|\.{1,2})?\/[\w.\-/]+$/.test(v);

const PLACEHOLDER_WORDS = new Set([
  'none', 'null', 'nil', 'undefined', 'empty', 'notset', 'unset', 'required', 'optional', 'string',
  'boolean', 'number', 'hidden', 'masked', 'omitted', 'removed', 'secret', 'password', 'token',
  'apikey', 'test', 'todo', 'fixme', 'xxx', 'encrypted', 'generated', 'provided', 'rotated', 'pass',
  'pwd', 'foobar',
]);

/** A stand-in that says where a secret goes without holding one. */
function isPlaceholder(v: string): boolean {
  if (/^<[^<>]*>$|^\$\{[^}]*\}$|^\$[A-Za-z_]\w*$|^%[A-Za-z_]\w*%$|^\{\{[^}]*\}\}$/.test(v)) return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|env)\b/.test(v)) return true;
  if (/^[*xX•.#_-]+$/.test(v)) return true;
  const word = v.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (PLACEHOLDER_WORDS.has(word)) return true;
  return /^(?:your|insert|enter|replace|paste)|redacted|changeme|placeholder|example|dummy|fake|sample/.test(word);
}
