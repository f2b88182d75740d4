import { extractSignals } from '../../compress/extractSignals';
import { clipCodePoints, type ToolResultRef } from './conversation';

/**
 * The short text that stands for a hidden tool result (`[gateway-manage-placeholder]`): what the
 * model needs to know the call happened and what it found, in bytes that depend only on the
 * result and the generation that hid it, so re-applying it inside a generation is byte-identical.
 */

const MAX_FAILURES = 3;
const MAX_NAMES = 8;
const MAX_LINE = 140;
const MAX_NAME = 80;

const grouped = (n: number): string => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

const EXIT = [/\bexit(?:ed)?(?: with)? (?:code|status)[:=\s]*(-?\d+)/i, /"exit_code"\s*:\s*(-?\d+)/];

/** The first exit code the output reports, if any. */
function exitCodeOf(text: string): string | undefined {
  for (const re of EXIT) {
    const m = re.exec(text);
    if (m?.[1] !== undefined) return m[1];
  }
  return undefined;
}

const lineCount = (text: string): number => (text === '' ? 0 : text.split('\n').length);

function callName(r: ToolResultRef): string {
  return r.input ? `${r.tool}(${r.input})` : r.tool;
}

const list = (items: readonly string[], max: number, clip: number): string => items.slice(0, max).map((s) => clipCodePoints(s, clip)).join(', ');

/**
 * `[strata: 1,234-line output of Bash(npm test) hidden at generation 3 (~5,678 tokens); exit 1;
 * error; failures: …; paths: …; symbols: …]`: the tool and its input, the size hidden, the exit
 * code and error flag, the first failure lines, and the paths and symbols the output names.
 */
export function placeholderText(result: ToolResultRef, generation: number, tokens: number): string {
  const parts = [`${grouped(lineCount(result.text))}-line output of ${callName(result)} hidden at generation ${generation} (~${grouped(tokens)} tokens)`];
  if (result.otherParts > 0) parts.push(`${result.otherParts} non-text part${result.otherParts === 1 ? '' : 's'}`);
  const exit = exitCodeOf(result.text);
  if (exit !== undefined) parts.push(`exit ${exit}`);
  if (result.isError) parts.push('error');
  const signals = extractSignals(result.text);
  if (signals.failures.length > 0) parts.push(`failures: ${list(signals.failures, MAX_FAILURES, MAX_LINE)}`);
  if (signals.paths.length > 0) parts.push(`paths: ${list(signals.paths, MAX_NAMES, MAX_NAME)}`);
  if (signals.symbols.length > 0) parts.push(`symbols: ${list(signals.symbols, MAX_NAMES, MAX_NAME)}`);
  return `[strata: ${parts.join('; ')}]`;
}

/** The text that stands for a result the operator removed (`[gateway-manage-controls]`): the pairing stays, the content goes. */
export function removedText(result: ToolResultRef): string {
  return `[strata: ${grouped(lineCount(result.text))}-line output of ${callName(result)} removed by the operator${result.isError ? '; error' : ''}]`;
}
