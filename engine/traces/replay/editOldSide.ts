/**
 * The old side of a recorded edit (`[replay-recall]`): the lines it replaces, which the agent must
 * have had in view. Every `old_string`/`oldString`/`old_str` value (each edit of a MultiEdit), and
 * a patch's context and removed lines (` x`, `-x`; not its `---` header or its `+` lines), as
 * content lines (`contentLines`). A whole-file write, an empty old string or a patch that only adds
 * has no old side. Pure.
 */
import { isPatch } from './actionPaths';
import { contentLines, isContentLine, normaliseLine } from './contentLines';
import { parsedArguments } from '../jsonText';

export interface OldSide {
  /** Distinct content lines, normalised. */
  lines: string[];
  /**
   * The first and last line of each old string as written (trimmed): an old string may start or
   * end inside a line, so these may be parts of lines (looked for verbatim in a request).
   */
  fragments?: { line: string; text: string }[];
}

const OLD_KEYS = new Set(['old_string', 'oldString', 'old_str']);

const parsed = parsedArguments;

/** An edit's old strings and old patch lines, collected from its arguments. */
function collect(value: unknown, key: string | undefined, texts: string[], patchLines: string[]): void {
  if (typeof value === 'string') {
    if (key !== undefined && OLD_KEYS.has(key)) texts.push(value);
    else if (isPatch(value)) for (const l of value.split('\n')) if ((l.startsWith('-') && !l.startsWith('---')) || l.startsWith(' ')) patchLines.push(l.slice(1));
  } else if (Array.isArray(value)) for (const v of value) collect(v, key, texts, patchLines);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) collect(v, k, texts, patchLines);
}

/** The old side of an edit call's arguments; undefined when it has no content line. */
export function editOldSide(argumentsText: string): OldSide | undefined {
  const texts: string[] = [];
  const patchLines: string[] = [];
  collect(parsed(argumentsText), undefined, texts, patchLines);
  const lines = contentLines([...texts, ...patchLines].join('\n'));
  if (lines.length === 0) return undefined;
  const fragments: { line: string; text: string }[] = [];
  for (const t of texts) {
    const raw = t.split('\n').map((l) => l.trim());
    for (const text of new Set([raw[0] as string, raw.at(-1) as string])) {
      const line = normaliseLine(text);
      if (isContentLine(line)) fragments.push({ line, text });
    }
  }
  return fragments.length > 0 ? { lines, fragments } : { lines };
}
