import { fitPrefix, type CountTokens } from '../compress/clipHeadTail';
import { extractSignals, sentencesOf, signalKindsOf } from '../compress/extractSignals';
import type { Tokenizer } from '../tokens/Tokenizer';
import type { HistoryMessage } from './Message';
import type { SummarizeInput, Summarizer } from './Summarizer';

/** First line of every extractive summary; also how a previous one is recognised and folded in. */
export const SUMMARY_HEADER = '[Conversation summary · lossy: the current repository and newer messages win]';

type Section = 'constraints' | 'decisions' | 'tasks' | 'requests' | 'failures' | 'facts' | 'paths' | 'symbols';
/** Sections in the priority order entries are offered in; rendered in this order too. */
const SECTIONS: readonly Section[] = ['constraints', 'decisions', 'tasks', 'requests', 'failures', 'facts', 'paths', 'symbols'];
const TITLES: Record<Section, string> = {
  constraints: 'Constraints:',
  decisions: 'Decisions:',
  tasks: 'Open tasks:',
  requests: 'User requests:',
  failures: 'Failures:',
  facts: 'Facts:',
  paths: 'Paths:',
  symbols: 'Symbols:',
};
const LISTS: ReadonlySet<Section> = new Set(['paths', 'symbols']);
const TASK = /\b(?:TODO|FIXME|next|remaining|still (?:need|to|open|missing)|not yet|follow[- ]up|pending|unresolved|open question|left to do)\b/i;
const MAX_ENTRY_CHARS = 300;
const MIN_REQUEST_WORDS = 3;
/** Rounds in which every section offers its next-newest entry before priority order takes over. */
const QUOTA = 2;

type Digest = Record<Section, string[]>;
const emptyDigest = (): Digest => ({ constraints: [], decisions: [], tasks: [], requests: [], failures: [], facts: [], paths: [], symbols: [] });

const clip = (s: string): string => (s.length > MAX_ENTRY_CHARS ? `${s.slice(0, MAX_ENTRY_CHARS - 1)}…` : s);

/** The section of one prose unit, or undefined for chatter. Constraints first: they are what a user most needs kept. */
function sectionOf(unit: string): Section | undefined {
  const kinds = signalKindsOf(unit);
  if (kinds.includes('constraints')) return 'constraints';
  if (kinds.includes('decisions')) return 'decisions';
  if (TASK.test(unit) || kinds.includes('risks')) return 'tasks';
  if (kinds.includes('failures')) return 'failures';
  if (kinds.includes('verification')) return 'facts';
  const names = extractSignals(unit);
  return names.paths.length > 0 || names.symbols.length > 0 ? 'facts' : undefined;
}

/** Prose units into their sections; chatter is dropped unless `fallback` says where it goes. */
function addProse(text: string, into: Digest, fallback?: Section): void {
  for (const line of text.split(/\r?\n/)) {
    for (const unit of sentencesOf(line.trim().replace(/^[-*•]\s+/, ''))) {
      const section = sectionOf(unit) ?? fallback;
      if (section) into[section].push(clip(unit));
    }
  }
}

/** A previous summary as entries: ours section by section, a foreign one (a model's) unit by unit. */
function addPrevious(text: string, into: Digest): void {
  const lines = text.split(/\r?\n/);
  if (lines[0]?.trim() !== SUMMARY_HEADER) {
    // Someone else's summary (a model's) was already distilled: every sentence of it is kept material.
    const names = extractSignals(text);
    into.paths.push(...names.paths);
    into.symbols.push(...names.symbols);
    return addProse(text, into, 'facts');
  }
  let section: Section | undefined;
  for (const raw of lines.slice(1)) {
    const line = raw.trim();
    const titled = SECTIONS.find((s) => line === TITLES[s] || (LISTS.has(s) && line.startsWith(`${TITLES[s]} `)));
    if (titled && LISTS.has(titled)) into[titled].push(...line.slice(TITLES[titled].length).split(', ').map((n) => n.trim()).filter(Boolean));
    else if (titled) section = titled;
    else if (section && line.startsWith('- ')) into[section].push(line.slice(2));
    else if (line) addProse(line, into, 'facts');
  }
}

/** Entries of the messages: decisions, constraints, tasks, requests and facts from prose; from tool traces only names and failures. */
function addMessages(messages: readonly HistoryMessage[], into: Digest): void {
  const callNames = new Map<string, string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      const names = extractSignals(m.content);
      into.paths.push(...names.paths);
      if (m.isError) into.failures.push(clip(`${callNames.get(m.toolCallId) ?? 'a tool'} failed: ${m.content.trim().split(/\r?\n/)[0] ?? ''}`));
      continue;
    }
    const names = extractSignals(m.content);
    into.paths.push(...names.paths);
    into.symbols.push(...names.symbols);
    if (m.role === 'assistant') {
      for (const c of m.toolCalls) {
        callNames.set(c.id, c.name);
        into.paths.push(...extractSignals(c.arguments).paths);
      }
    } else {
      const first = sentencesOf(m.content.trim().split(/\r?\n/)[0] ?? '')[0];
      if (first && first.split(/\s+/).length >= MIN_REQUEST_WORDS) into.requests.push(clip(first));
    }
    addProse(m.content, into);
  }
}

/** Each entry once, in its first section (priority order) and first position. */
function dedupe(digest: Digest): Digest {
  const seen = new Set<string>();
  const out = emptyDigest();
  for (const s of SECTIONS) {
    for (const e of digest[s]) {
      const key = `${LISTS.has(s) ? s : 'prose'}\u0000${e}`;
      if (e && !seen.has(key)) out[s].push(e);
      seen.add(key);
    }
  }
  return out;
}

function render(kept: Digest): string {
  const out = [SUMMARY_HEADER];
  for (const s of SECTIONS) {
    if (kept[s].length === 0) continue;
    if (LISTS.has(s)) out.push(`${TITLES[s]} ${kept[s].join(', ')}`);
    else out.push(TITLES[s], ...kept[s].map((e) => `- ${e}`));
  }
  return out.join('\n');
}

/**
 * The deterministic summary of a conversation prefix (no model call). Kept, while they fit
 * `maxTokens`: constraints, decisions, open tasks (TODO/next/remaining), user requests, failures,
 * facts that name paths or symbols, then the named paths and symbols; each section's two newest
 * entries first (so none starves), then the rest in that priority order, newest first; raw tool output,
 * tool arguments and chatter are left out. The previous summary is folded in (its entries count as
 * the oldest), never nested, so repeated compression keeps one flat summary. Invariant: the result
 * is at most `maxTokens` tokens and every entry is verbatim input text (clipped at 300 characters),
 * except that a failed tool call is noted as `<tool name> failed: <first line of its result>`.
 */
export function extractiveSummary(input: SummarizeInput, countTokens: CountTokens): string {
  const all = emptyDigest();
  if (input.previousSummary) addPrevious(input.previousSummary, all);
  addMessages(input.messages, all);
  const digest = dedupe(all);
  const headerTokens = countTokens(SUMMARY_HEADER);
  if (headerTokens > input.maxTokens) return SUMMARY_HEADER.slice(0, fitPrefix(SUMMARY_HEADER, input.maxTokens, countTokens));
  const counts = new Map<Section, number>();
  const taken: { section: Section; entry: string; at: number }[] = [];
  let used = headerTokens;
  // Breadth first for QUOTA rounds (every section is represented), then strictly by section
  // priority, newest first within a section, so durable constraints and decisions are never crowded
  // out by many long requests.
  const offers: [Section, number][] = [];
  for (let r = 1; r <= QUOTA; r++) for (const s of SECTIONS) if (digest[s].length - r >= 0) offers.push([s, digest[s].length - r]);
  for (const s of SECTIONS) for (let i = digest[s].length - 1 - QUOTA; i >= 0; i--) offers.push([s, i]);
  for (const [s, i] of offers) {
    const entry = digest[s][i] ?? '';
    const cost = countTokens(`\n- ${entry}`) + ((counts.get(s) ?? 0) === 0 ? countTokens(`\n${TITLES[s]}`) : 0);
    if (used + cost > input.maxTokens) continue;
    used += cost;
    counts.set(s, (counts.get(s) ?? 0) + 1);
    taken.push({ section: s, entry, at: i });
  }
  const build = () => {
    const out = emptyDigest();
    for (const s of SECTIONS) out[s] = taken.filter((t) => t.section === s).sort((a, b) => a.at - b.at).map((t) => t.entry);
    return render(out);
  };
  // The per-entry estimate is an upper bound for common tokenizers; this makes the cap exact.
  let text = build();
  while (taken.length > 0 && countTokens(text) > input.maxTokens) {
    taken.pop();
    text = build();
  }
  return text;
}

/** The default {@link Summarizer}: {@link extractiveSummary} counted with the conversation's tokenizer; synchronous. */
export function extractiveSummarizer(tokenizer: Tokenizer): Summarizer {
  return { summarize: (input) => extractiveSummary(input, (text) => tokenizer.count(text)) };
}
