/**
 * The file-reading entry point of the trace importers (the one module here that uses Node): reads a
 * trace IN PLACE (never copying it) and hands its text to the pure importers.
 */
import { readFileSync } from 'node:fs';
import { importTraceText } from './importTrace';
import type { TraceFormat, TraceImport } from './TraceEvent';

/** Events of the trace at `path`, in `format` or the one detected from its content; errors name `path`. */
export function importTraceFile(path: string, format?: TraceFormat): TraceImport {
  return importTraceText(readFileSync(path, 'utf8'), path, format);
}
