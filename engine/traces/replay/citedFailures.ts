/**
 * Failures a recorded action cites (`[replay-recall]`). Pure.
 *
 * A FAILING RESULT is a tool result flagged as an error, or the output of a test run or shell
 * command that `testFailed` says failed. Its FAILURE LINES are its content lines (`contentLines`)
 * with a failure marker (`FAIL`, `FAILED`, `FAILURE`, `ERROR`, `error`, `Error`, a name ending in
 * `Error` or `Exception`, `Traceback`, `assert`, `panic`, `✕`, `✗`, `×`), at most
 * {@link MAX_FAILURE_LINES} per result. An action CITES a failure line when its text or its call
 * arguments (new content excluded, as in `actionReferences`) name one of the line's test names as
 * a whole identifier (an identifier of 6+ characters with a `test`/`tests` component and another
 * one: `test_login`, `TestLogin`, `testLogin`, `auth_test`; not `pytest` or `TestCase`), or
 * quote its message (what follows the marker, from its first `: ` when there is one, without a
 * trailing duration such as `(12 ms)`), when that is at least {@link MIN_MESSAGE_CHARS}
 * characters, whitespace normalised.
 */
import { parsedArguments } from '../jsonText';
import { isPatch, NEW_CONTENT_KEYS } from './actionPaths';
import { testFailed, type ToolKind } from './classifyToolCall';
import { contentLines } from './contentLines';

/** Failure lines kept per failing result. */
const MAX_FAILURE_LINES = 40;
/** Shortest message an action must quote to cite a failure by its text. */
const MIN_MESSAGE_CHARS = 16;

export interface FailureLine {
  /** The normalised line (`contentLines`). */
  line: string;
  /** Its test names. */
  tests: string[];
  /** Its message, when long enough to be quoted. */
  message?: string;
}

/** What an action says, as citations are looked for in it. */
export interface ActionWords {
  identifiers: ReadonlySet<string>;
  /** Its texts and argument strings, whitespace normalised. */
  text: string;
}

const MARKER = /\b(?:FAIL(?:ED|URE)?|ERROR|[Ee]rror|[A-Za-z]\w*(?:Error|Exception)|Traceback|[Aa]ssert(?:ion)?|panic(?:ked)?)\b|[✕✗×]/;
const IDENT = /[A-Za-z_$][\w$]*/g;
const NOT_TEST_NAMES = new Set(['TestCase', 'TestSuite', 'TestRunner', 'test_utils', 'test_helpers']);

/** Whether a result failed (see the module comment). */
export function isFailingResult(kind: ToolKind, content: string, isError: boolean): boolean {
  return isError || ((kind === 'test' || kind === 'shell') && testFailed(content, false));
}

function isTestName(id: string): boolean {
  if (id.length < 6 || NOT_TEST_NAMES.has(id)) return false;
  const parts = id.split(/_+|(?<=[a-z0-9])(?=[A-Z])/).filter((p) => p !== '');
  return parts.length >= 2 && parts.some((p) => /^tests?$/i.test(p));
}

function messageOf(line: string, marker: RegExpExecArray): string | undefined {
  let rest = line.slice(marker.index + marker[0].length);
  const colon = rest.indexOf(': ');
  rest = colon >= 0 ? rest.slice(colon + 2) : rest.replace(/^\s*[:-]?\s*/, '');
  rest = rest.replace(/\s*[([]\d+(?:\.\d+)?\s*m?s[)\]]$/, '').trim();
  return rest.length >= MIN_MESSAGE_CHARS ? rest : undefined;
}

/** The failure lines of a failing result's content (see the module comment). */
export function failureLines(content: string): FailureLine[] {
  const out: FailureLine[] = [];
  for (const line of contentLines(content)) {
    const marker = MARKER.exec(line);
    if (!marker) continue;
    const tests = [...new Set(line.match(IDENT) ?? [])].filter(isTestName);
    const message = messageOf(line, marker);
    out.push({ line, tests, ...(message !== undefined ? { message } : {}) });
    if (out.length >= MAX_FAILURE_LINES) break;
  }
  return out;
}

/** The strings of a call's arguments that are not new content (a patch without its `+` lines). */
function argumentStrings(value: unknown, key: string | undefined, out: string[]): void {
  if (key !== undefined && NEW_CONTENT_KEYS.has(key)) return;
  if (typeof value === 'string') out.push(isPatch(value) ? value.split('\n').filter((l) => !l.startsWith('+')).join('\n') : value);
  else if (Array.isArray(value)) for (const v of value) argumentStrings(v, key, out);
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) argumentStrings(v, k, out);
}

/** The words of an action: its texts and its calls' arguments (new content excluded). */
export function actionWords(texts: readonly string[], calls: readonly { arguments: string }[]): ActionWords {
  const strings = [...texts];
  for (const c of calls) {
    argumentStrings(parsedArguments(c.arguments), undefined, strings);
  }
  const text = strings.join('\n');
  return { identifiers: new Set(text.match(IDENT) ?? []), text: text.replace(/\s+/g, ' ') };
}

/** The failure lines `action` cites. */
export function citedLines(lines: readonly FailureLine[], action: ActionWords): string[] {
  return lines.filter((f) => f.tests.some((t) => action.identifiers.has(t)) || (f.message !== undefined && action.text.includes(f.message))).map((f) => f.line);
}
