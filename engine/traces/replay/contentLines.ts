/**
 * Lines of content as needed-reference recall compares them (`[replay-recall]`). Pure.
 *
 * A line is compared NORMALISED: a leading line-number prefix as readers and searchers print it
 * is removed (`   12→`, `12\t` of `cat -n`/`nl`, `12:` of SWE-agent's `open`, `path:12:` and
 * `path-12-` of `grep -n`; at most twice, so a prefixed and an unprefixed copy of a line agree),
 * whitespace runs become one space and the ends are trimmed. It counts as content only when it is
 * NON-TRIVIAL: at least {@link MIN_LINE_CHARS} letters or digits (so `}`, `});`, `} else {`,
 * `</div>` or `---` never match anything), and not a frame line a tool wraps its output in
 * (`Exit code: 0`, `Wall time: …`, `Output:`, `<returncode>0</returncode>`, `<output>`,
 * `[result-id: …]`, Claude Code's `File unchanged since last read…` stub). Client reminders inside a result (`<system-reminder>…</system-reminder>`)
 * are not content either.
 */

/** Letters or digits a normalised line needs to count as content. */
export const MIN_LINE_CHARS = 8;

const LINE_NUMBER = /^(?:[^\s:]*[./\\][^\s:]*[:-])?\d+(?:→|\t|:|\||-)\s?/;
const FRAME = [
  /^<returncode>-?\d+<\/returncode>$/,
  /^<\/?output>$/,
  /^Exit code:? -?\d+$/,
  /^Wall time: [\d.]+ ?\w*$/,
  /^Output:$/,
  /^Total output lines: \d+$/,
  /^Process exited with code -?\d+$/,
  /^Chunk ID: \S+$/,
  /^Original token count: \d+$/,
  /^\[result-id: [^\]]+\]$/,
  /^File unchanged since last read\b/,
];
const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const WORD_CHAR = /[\p{L}\p{N}]/gu;

/** A line as recall compares it (see the module comment); the empty string for a blank line. */
export function normaliseLine(raw: string): string {
  let s = raw.trimStart();
  for (let k = 0; k < 2; k++) {
    const m = LINE_NUMBER.exec(s);
    if (!m) break;
    s = s.slice(m[0].length).trimStart();
  }
  return s.replace(/\s+/g, ' ').trimEnd();
}

/** Whether a normalised line counts as content (see the module comment). */
export function isContentLine(line: string): boolean {
  if (line.length < MIN_LINE_CHARS) return false;
  const letters = line.match(WORD_CHAR);
  if (letters === null || letters.length < MIN_LINE_CHARS) return false;
  return !FRAME.some((f) => f.test(line));
}

/** The distinct normalised content lines of `text`, in first-seen order. */
export function contentLines(text: string): string[] {
  const out = new Set<string>();
  for (const raw of text.replace(REMINDER, '').split('\n')) {
    const line = normaliseLine(raw);
    if (isContentLine(line)) out.add(line);
  }
  return [...out];
}
