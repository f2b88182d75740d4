/**
 * The key/value heuristic of `findSecrets` (`[mask-secrets]`, `[memory-intake]`): which keys
 * name a secret, and which values assigned to them are literals rather than references,
 * placeholders or prose. Pure; every test is a bounded scan of one short string.
 */

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
 * The secret word a key ends in (`password`, `secret`, `api_key`, `auth_token`), or undefined
 * when the key does not name a secret. A key names one when its last word does: secret, token,
 * password, passwd, passphrase, auth, authorization, a word ending in one of these
 * (`authtoken`, `clientsecret`) or in apikey/accesskey/secretkey/privatekey, `pass` after another
 * word (`DB_PASS`), or `key` after api/access/secret/private/client/auth/signing/account/…
 * (`api_key`, `AccountKey`). Only the last word counts: `tokenCount`, `max_tokens`, `author` are not.
 */
export function secretWordOf(key: string): string | undefined {
  if (!SECRET_HINT.test(key)) return undefined;
  const words = keyWords(key);
  const last = words[words.length - 1];
  if (last === undefined) return undefined;
  const prev = words[words.length - 2];
  if (last === 'auth' || last === 'authorization' || SECRET_WORD_END.test(last)) {
    return prev !== undefined && (last === 'token' || last === 'key') && KEY_QUALIFIERS.has(prev) ? `${prev}_${last}` : last;
  }
  if (last === 'pass' && prev !== undefined) return 'pass';
  return (last === 'key' || last === 'keys') && prev !== undefined && KEY_QUALIFIERS.has(prev) ? `${prev}_${last}` : undefined;
}

const PLACEHOLDER_WORDS = new Set([
  'none', 'null', 'nil', 'undefined', 'empty', 'notset', 'unset', 'required', 'optional', 'string', 'boolean', 'number',
  'hidden', 'masked', 'omitted', 'removed', 'secret', 'password', 'token', 'apikey', 'test', 'todo', 'fixme', 'xxx',
  'encrypted', 'generated', 'provided', 'rotated', 'pass', 'pwd', 'foobar',
]);

/** A stand-in that says where a secret goes without holding one: `<token>`, `${KEY}`, `changeme`, `your-api-key-here`. */
export function isPlaceholder(v: string): boolean {
  if (/^<[^<>]*>$|^\$\{\{?[^{}]*\}\}?$|^\$[A-Za-z_]\w*$|^%[A-Za-z_]\w*%$|^\{\{[^{}]*\}\}$/.test(v)) return true;
  if (/^(?:process\.env|import\.meta\.env|os\.environ|env)\b/.test(v)) return true;
  if (/^([^])\1*$/.test(v) || /^[*xX•.#_-]+$/.test(v)) return true;
  const word = v.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (PLACEHOLDER_WORDS.has(word)) return true;
  return /^(?:your|insert|enter|replace|paste)|redacted|changeme|placeholder|example|dummy|fake|sample/.test(word);
}

/** Words that make a quoted value with spaces a description, not a passphrase. */
const PROSE_WORDS = new Set([
  'the', 'a', 'an', 'to', 'of', 'is', 'are', 'your', 'for', 'in', 'on', 'and', 'or', 'with', 'be', 'this', 'that', 'it',
  'we', 'you', 'not', 'use', 'used', 'enter', 'from', 'by', 'as', 'must', 'should', 'will', 'here', 'typed', 'user',
]);

/** A quoted value that reads as a sentence: "The password the user typed". */
function looksLikeProse(v: string): boolean {
  const words = v.toLowerCase().split(/\s+/).filter(Boolean);
  return words.length >= 2 && words.some((w) => PROSE_WORDS.has(w.replace(/[^a-z]/g, '')));
}

/** A variable, member or constant in code: `config.db.password`, `userPassword`, `API_KEY`. */
function isReference(v: string): boolean {
  if (/^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+!?$/.test(v)) return true;
  return /^[A-Za-z_$]+!?$/.test(v) && (/[a-z][A-Z]/.test(v) || v.includes('_') || /^[A-Z$]+!?$/.test(v) || v.includes('$'));
}

const AUTH_SCHEME = /^(?:bearer|basic|token)[ \t]/i;
const MARKER_PREFIX = '[secret masked: ';
/** What may follow a bare word at the end of a setting (not the next word of a sentence). */
const SETTING_END = /^[ \t]*(?:[\r\n,;)}\]#&|]|$)/;

/**
 * Whether the value read after a secret key is a literal secret. Quoted: 8 characters or more,
 * and not a placeholder, a template (`${…}` inside), prose (spaces and a word such as "the"), an
 * environment variable's name, an auth scheme (left to those rules) or already masked. Unquoted
 * (read up to whitespace, a quote, a bracket, `,;&` or a backslash): 8 characters or more, and not
 * a placeholder, a member path, a call (`getToken(`), a reference (camelCase, snake_case or
 * all-caps identifier), a path, or a word followed by more words of a sentence.
 */
export function isSecretValue(value: string, quoted: boolean, rest: string, followedByMarker: boolean): boolean {
  if (value.length < 8 || value.includes(MARKER_PREFIX) || isPlaceholder(value) || AUTH_SCHEME.test(value)) return false;
  if (quoted) return !/\$\{|#\{|\{\{/.test(value) && !looksLikeProse(value) && !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/.test(value);
  if (followedByMarker || isReference(value) || /^(?:~|\.{1,2})?\/[\w.\-/]+$/.test(value)) return false;
  if (rest.startsWith('(') && /^[\w$.]+$/.test(value)) return false;
  return !/^[A-Za-z]+$/.test(value) || SETTING_END.test(rest);
}
