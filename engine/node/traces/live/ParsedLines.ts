/**
 * The lines of one followed file as a live session keeps them: each complete line parsed once, as
 * it arrives (`[live-incremental]`), so what an update does again is only the conversion to events.
 */
import { parseJsonLine, type JsonLine } from '../../../traces/jsonText';
import { TraceImportError } from '../../../traces/TraceEvent';

/** One followed file's lines: parsed once each, as they arrive (`[live-incremental]`). */
export class ParsedLines {
  records: JsonLine[] = [];
  /** Complete lines received (blank and skipped ones included): the next line's number is one more. */
  count = 0;
  /** The first malformed line's error; later lines are not read until the file starts over. */
  error: string | null = null;

  constructor(private readonly file: string) {}

  add(lines: readonly string[]): void {
    for (const raw of lines) {
      this.count++;
      if (this.error !== null) continue;
      try {
        const parsed = parseJsonLine(raw, this.file, this.count, () => false);
        if (parsed) this.records.push(parsed);
      } catch (err) {
        this.error = err instanceof TraceImportError ? err.message : `Cannot read ${this.file}: ${(err as Error).message}`;
      }
    }
  }

  clear(): void {
    this.records = [];
    this.count = 0;
    this.error = null;
  }
}
