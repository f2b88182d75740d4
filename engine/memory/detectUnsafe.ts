import { describeSecret, findSecrets } from '../privacy/findSecrets';
import { firstHiddenCharacter } from '../privacy/invisibleCharacters';

/**
 * Why a string may not enter project memory, or `undefined` when it may. Memory is replayed into
 * later prompts and kept in the catalog file, so it must never hold a credential, and never a
 * control, bidirectional or invisible character that could hide text from the person who reads
 * or verifies it, or rewrite what the model sees. The reason names the kind of content and never
 * includes it: reasons are logged and shown, and echoing the secret would leak it there instead.
 *
 * Secrets are what `findSecrets` finds, the detector `maskSecrets` masks with, so whatever a view
 * would mask is refused here. Invisible characters (zero-width, BOM, bidi marks, soft hyphen,
 * variation selectors, tags) are refused before the secret check, except a variation selector or
 * joiner inside an emoji; the secret check reads through those too.
 *
 * Invariant: total, deterministic and linear in the length of `text`.
 */
export function detectUnsafe(text: string): string | undefined {
  const control = CONTROL.exec(text);
  if (control) return `contains control character ${codePoint(control[0])}`;
  const bidi = BIDI.exec(text);
  if (bidi) return `contains a bidirectional control character ${codePoint(bidi[0])}`;
  const surrogate = LONE_SURROGATE.exec(text);
  if (surrogate) return `contains an unpaired surrogate ${codePoint(surrogate[0])}`;
  const hidden = firstHiddenCharacter(text);
  if (hidden) return `contains an invisible character ${codePoint(hidden.char)} (it can hide text from the person who verifies the entry)`;
  const [secret] = findSecrets(text);
  return secret ? `contains ${describeSecret(secret)}` : undefined;
}

/** C0 controls except TAB, LF and CR, then DEL and the C1 block. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** Embeddings, overrides and isolates: the characters of "Trojan Source" reordering. */
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
/** A surrogate without its partner cannot be stored as UTF-8 without being rewritten. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (ch: string): string => `U+${(ch.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
