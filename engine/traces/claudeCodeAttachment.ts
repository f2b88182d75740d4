/**
 * What a Claude Code `attachment` line put into the conversation (pure). Current clients record
 * the text they sent beside the attachment's data (`rendered: [{content}]` with `renderedRole`
 * `system` or `user`); older ones (2.1.10x) record only the data, so for the kinds whose text is
 * plainly in the data (a skill listing, an edited file's snippet, a queued command, a task list,
 * a date change, newly deferred tools) the text is rendered here and marked estimated. Bookkeeping
 * attachments that send nothing (`prompt_snapshot`, `session_context`) give none.
 */
import { asString, isRecord, type JsonRecord } from './jsonText';

export interface AttachmentText {
  role: 'system' | 'user';
  kind: string;
  text: string;
  estimated: boolean;
}

/** Attachment kinds that are the client's own bookkeeping, never sent to the model. */
const SILENT_ATTACHMENTS: ReadonlySet<string> = new Set(['prompt_snapshot', 'session_context']);

function renderedText(rendered: unknown): string | undefined {
  if (!Array.isArray(rendered)) return undefined;
  const parts: string[] = [];
  for (const r of rendered) {
    if (!isRecord(r)) continue;
    const c = r['content'];
    if (typeof c === 'string') parts.push(c);
    else if (Array.isArray(c)) for (const b of c) if (isRecord(b) && typeof b['text'] === 'string') parts.push(b['text']);
  }
  return parts.length > 0 ? parts.join('\n') : undefined;
}

const reminder = (text: string) => `<system-reminder>\n${text}\n</system-reminder>`;

/** Text an older client sent for an attachment of `kind`, rebuilt from its data; undefined when the data holds none. */
function estimatedText(kind: string, a: JsonRecord): string | undefined {
  switch (kind) {
    case 'skill_listing':
      return typeof a['content'] === 'string' ? reminder(a['content']) : undefined;
    case 'edited_text_file': {
      const name = asString(a['filename']);
      const snippet = asString(a['snippet']);
      return name && snippet ? reminder(`Note: ${name} was modified, either by the user or by a linter. Here are the relevant changes:\n${snippet}`) : undefined;
    }
    case 'queued_command':
      return asString(a['prompt']);
    case 'task_reminder':
      return Array.isArray(a['content']) && a['content'].length > 0 ? reminder(`The task list:\n${JSON.stringify(a['content'])}`) : undefined;
    case 'date_change':
      return typeof a['newDate'] === 'string' ? reminder(`The date has changed. Today's date is now ${a['newDate']}.`) : undefined;
    case 'deferred_tools_delta':
      return Array.isArray(a['addedNames']) && a['addedNames'].length > 0 ? reminder(`The following deferred tools are now available via ToolSearch:\n${a['addedNames'].join('\n')}`) : undefined;
    default:
      return undefined;
  }
}

/** The text `record` (an `attachment` line) sent, or undefined when it sent nothing this module can tell. */
export function attachmentText(record: JsonRecord): AttachmentText | undefined {
  const a = record['attachment'];
  if (!isRecord(a)) return undefined;
  const kind = asString(a['type']) ?? '(no type)';
  if (SILENT_ATTACHMENTS.has(kind)) return undefined;
  const role = record['renderedRole'] === 'user' ? 'user' : 'system';
  const rendered = renderedText(record['rendered']);
  if (rendered !== undefined) return { role, kind, text: rendered, estimated: false };
  if ('rendered' in record) return undefined;
  const text = estimatedText(kind, a);
  return text === undefined ? undefined : { role: 'system', kind, text, estimated: true };
}
