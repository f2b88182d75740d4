import { extractSignals, sentencesOf } from './extractSignals';
import { capReport, REPORT_LIST_CAPS, REPORT_LIST_FIELDS, SUMMARY_MAX_CHARS, TRUNCATION_MARK, truncateChars, type ParentReport, type ReportListField } from './ParentReport';

/** One message of a worker's conversation, as the worker's model saw it. */
export interface TranscriptMessage {
  role: 'user' | 'assistant' | 'tool';
  content: string;
}

/** Everything a report is built from; no clock, no ids minted here, so the report is reproducible. */
export interface TranscriptInput {
  taskId: string;
  agentId: string;
  status: ParentReport['status'];
  transcript: readonly TranscriptMessage[];
}

const LEAD_SENTENCES = 3;
const LEAD_MAX_CHARS = 480;
const SUMMARY_FILES = 6;
const OPEN_QUESTION = /\bopen question\b/i;
const CAUSE_FIRST = /\b(?:root cause|caused by|fix(?:ed)?:|fixed by|the fix)\b/i;

const union = (...lists: readonly string[][]): string[] => [...new Set(lists.flat())];

/** The newest `cap` entries in order, the older ones counted by a leading "… N earlier" entry. */
function latest(entries: readonly string[], cap: number): string[] {
  if (entries.length <= cap) return [...entries];
  const kept = entries.slice(entries.length - (cap - 1));
  return [`${TRUNCATION_MARK} ${entries.length - kept.length} earlier`, ...kept];
}

/** The first sentences of a message's prose lines (code fences and blank lines skipped). */
function leadOf(message: string): string {
  const prose = message.split(/\r?\n/).filter((l) => l.trim() !== '' && !l.trim().startsWith('```'));
  const sentences = prose.flatMap((l) => sentencesOf(l)).slice(0, LEAD_SENTENCES);
  return truncateChars(sentences.join(' '), LEAD_MAX_CHARS);
}

/**
 * A capped parent report of a worker's transcript (spec "Compression"). Lists come from
 * {@link extractSignals}: files (without `:line`) and symbols the worker named first, then tool output's;
 * decisions and risks only from what the worker and user said (a grep dump's TODOs are not the
 * worker's risks); failures and verification chronological, keeping the newest. The summary is the
 * last assistant message's first sentences plus root-cause and decision lines, and always names the
 * files when the transcript has any, so it can never read "Authentication was changed and tests
 * were done." Deterministic: the same input gives the same report.
 */
export function reportFromTranscript(input: TranscriptInput): ParentReport {
  const { transcript } = input;
  const join = (keep: (m: TranscriptMessage) => boolean) => transcript.filter(keep).map((m) => m.content).join('\n');
  const said = extractSignals(join((m) => m.role !== 'tool'));
  const tools = extractSignals(join((m) => m.role === 'tool'));
  const all = extractSignals(join(() => true));

  const asked = transcript.filter((m) => m.role === 'assistant').flatMap((m) => m.content.split(/\r?\n/).flatMap((l) => sentencesOf(l)));
  const files = union([...said.paths, ...tools.paths].map((p) => p.replace(/:\d+(?::\d+)?$/, '')));
  const decisions = union(said.decisions.filter((d) => CAUSE_FIRST.test(d)), said.decisions);

  const lastAssistant = [...transcript].reverse().find((m) => m.role === 'assistant');
  const filesPart = files.length > 0 ? `Files: ${files.slice(0, SUMMARY_FILES).join(', ')}.` : '';
  const room = SUMMARY_MAX_CHARS - (filesPart ? filesPart.length + 1 : 0);
  const parts: string[] = [];
  let length = 0;
  const add = (part: string) => {
    if (!part || parts.some((p) => p.includes(part)) || length + part.length + 1 > room) return;
    parts.push(part);
    length += part.length + 1;
  };
  add(lastAssistant ? leadOf(lastAssistant.content) : '');
  for (const d of decisions) add(d);
  let summary = parts.join(' ');
  if (filesPart && !files.some((f) => summary.includes(f))) summary = summary ? `${summary} ${filesPart}` : filesPart;
  if (!summary) summary = `Status ${input.status}; the transcript states no outcome, decision or file.`;

  return capReport({
    taskId: input.taskId,
    agentId: input.agentId,
    status: input.status,
    summary,
    files,
    symbols: union(said.symbols, tools.symbols),
    decisions,
    failures: latest(all.failures, REPORT_LIST_CAPS.failures),
    verification: latest(all.verification, REPORT_LIST_CAPS.verification),
    risks: said.risks.filter((r) => !OPEN_QUESTION.test(r)),
    openQuestions: union(
      said.risks.filter((r) => OPEN_QUESTION.test(r)),
      asked.filter((s) => s.endsWith('?')),
    ),
  });
}

const LABELS: Readonly<Record<ReportListField, string>> = {
  files: 'Files',
  symbols: 'Symbols',
  decisions: 'Decisions',
  failures: 'Failures',
  verification: 'Verification',
  risks: 'Risks',
  openQuestions: 'Open questions',
};
const INLINE: ReadonlySet<ReportListField> = new Set(['files', 'symbols']);

/**
 * The report as compact text for the parent's prompt, headed
 * `Report from <agentId> · task <taskId> · <status>`. The report is capped first, empty lists are
 * left out, and nothing varies between calls (no time, no ids), so the same report always renders
 * byte-identically and keeps the parent's prompt prefix cacheable.
 */
export function renderReport(r: ParentReport): string {
  const c = capReport(r);
  const out = [`Report from ${c.agentId} · task ${c.taskId} · ${c.status}`];
  if (c.summary) out.push(c.summary);
  for (const field of REPORT_LIST_FIELDS) {
    const list = c[field];
    if (list.length === 0) continue;
    if (INLINE.has(field)) out.push(`${LABELS[field]}: ${list.join(', ')}`);
    else out.push(`${LABELS[field]}:`, ...list.map((e) => `- ${e}`));
  }
  return out.join('\n');
}
