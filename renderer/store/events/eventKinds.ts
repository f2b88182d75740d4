/** What an entry of the event log is about; the view filters on it. Its own file so the ui slice's actions can name it without a cycle. */
export const EVENT_KINDS = ['refresh', 'compaction', 'hook', 'error', 'memory', 'run', 'turn', 'log'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];
