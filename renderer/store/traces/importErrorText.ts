import { MAX_TRACE_CONTENT_BYTES } from '../../../engine/shared/limits';

/** The parts of a failed import call the sentence is made from (an `ApiError`, or any error). */
export interface ImportFailure {
  code?: string;
  message: string;
  issues?: readonly { path: string; message: string }[] | undefined;
}

const MIB = MAX_TRACE_CONTENT_BYTES / 2 ** 20;
const FORMATS = 'Claude Code, Codex, Gemini CLI, OpenCode, OpenAI messages, SWE-agent or ATIF';

/** One argument the host refused, in words about the file (never the argument's name). */
function issueText(name: string, issue: { path: string; message: string }): string {
  if (issue.path === 'content' && /empty/.test(issue.message)) return `${name} is empty: there is nothing in it to import.`;
  if (issue.path === 'content') return `${name} is too large to import here (up to ${MIB} MiB); import it by its path with strata import.`;
  if (issue.path === 'name') return `The file’s name is empty or longer than 255 characters; rename it and import it again.`;
  return `${name} could not be sent to the host; choose the file again.`;
}

/** What the importer said about a line of the file, as a sentence. */
function problemText(name: string, line: number, problem: string): string {
  if (/^the file is empty/.test(problem)) return `${name} is empty: there is nothing in it to import.`;
  if (/records no LLM call/.test(problem)) return `${name} records no call to a model, so there is nothing to replay.`;
  if (/^unrecognised trace format/.test(problem)) return `${name} is not a trace Strata reads: line ${line} fits none of the formats it knows (${FORMATS}).`;
  if (/not valid JSON/.test(problem)) return `${name} is not valid JSON at line ${line}; the file may be cut short or not a trace.`;
  if (/nested more than/.test(problem)) return `${name} nests its JSON too deeply at line ${line}; no trace nests that deep, so it is refused.`;
  return `${name} is not a trace Strata can read: at line ${line}, ${problem.replace(/\.$/, '')}.`;
}

/**
 * Why an import of the file `name` failed, in a person's words (issue 22 item 16): the host's
 * argument refusals and the importers' refusals become sentences about the file; a command name,
 * an argument path or the host's `upload:` source prefix never reaches the view.
 */
export function importErrorText(name: string, err: ImportFailure): string {
  if (err.code === 'invalid_args' && err.issues && err.issues.length > 0) return issueText(name, err.issues[0]!);
  // The importers name the file and the line: `upload:<name>:<line>[:<column>]: <problem>`.
  const located = /^(?:upload:)?(.*?):(\d+)(?::\d+)?: (.*)$/s.exec(err.message);
  if (located) return problemText(name, Number(located[2]), located[3]!);
  if (err.code === 'unavailable') return `The host could not store ${name} right now; try again once it is back.`;
  const plain = err.message.replace(/^Invalid arguments for "[^"]*": /, '').replace(/^"[^"]*" failed: /, '');
  if (err.code === 'invalid_args') return plain;
  return `${name} could not be imported: ${plain.replace(/\.$/, '')}.`;
}
