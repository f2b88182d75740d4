import { closeSync, type FSWatcher, fstatSync, openSync, readSync, statSync, watch } from 'node:fs';
import type { Scheduler } from '../../../ports/Scheduler';
import { systemScheduler } from '../../../ports/systemScheduler';
import { MAX_TRACE_LINE_BYTES } from '../../../traces/jsonText';

/** What happened to a followed file besides growing. */
export type TailStatus = 'following' | 'waiting' | 'truncated' | 'rotated' | 'deleted' | 'error';

export interface LiveTailListener {
  /**
   * Complete lines appended since the last call, in order, without their newline. A line longer
   * than the line cap comes as an empty line (so the lines after it keep their numbers), after
   * `skipped` said so.
   */
  lines(lines: string[]): void;
  /** Line `line` (1-based) was `bytes` long, over the line cap: it was read past, never held or parsed. */
  skipped?(line: number, bytes: number): void;
  /**
   * The file started over (truncated below what was read, or replaced by another file at the same
   * path): everything read so far no longer describes it, and its lines come again from the start.
   */
  reset?(why: 'truncated' | 'rotated'): void;
  /** A status change, with a sentence a person can read. */
  status?(status: TailStatus, message: string): void;
}

export interface LiveTailOptions {
  /** How often the file is checked when no change notice arrives (also the fallback where watching fails). */
  pollMs?: number;
  /** The most bytes read in one check, so a huge file is taken in slices without blocking the host. */
  maxReadBytes?: number;
  /** The longest line handed on (default {@link MAX_TRACE_LINE_BYTES}); a longer one is skipped and reported. */
  maxLineBytes?: number;
  /** The poll's timer and the next slice's turn of the event loop (default: the real timers). */
  scheduler?: Scheduler;
}

/**
 * Follows a growing file read-only, handing on complete lines only. A half-written last line waits
 * until its newline arrives. Truncation (the file got shorter than what was read) and rotation (a
 * different file at the path) reset the reader and say so; a deleted file is reported and waited
 * for. Change notices from `fs.watch` trigger a check at once; a poll catches what they miss
 * (network drives, editors that replace files, platforms without notices).
 */
export class LiveTail {
  private offset = 0;
  /** Bytes read after the last newline: a line still being written (in the slices read, never more than the line cap). */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Bytes of a line over the cap read past so far (-1 when not inside one). */
  private skipping = -1;
  /** Complete lines handed on (skipped ones included): the number of the line being read is one more. */
  private lineCount = 0;
  /** The last bytes read (up to 64), to notice a file rewritten and grown past where reading stopped. */
  private seen: Buffer = Buffer.alloc(0);
  private identity: string | undefined;
  private state: TailStatus | undefined;
  /** Stops the poll; set while the tail is started. */
  private stopPoll: (() => void) | undefined;
  private watcher: FSWatcher | undefined;
  private checking = false;
  private readonly pollMs: number;
  private readonly maxReadBytes: number;
  private readonly maxLineBytes: number;
  private readonly scheduler: Scheduler;

  constructor(
    readonly path: string,
    private readonly listener: LiveTailListener,
    options: LiveTailOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.maxReadBytes = options.maxReadBytes ?? 4 * 1024 * 1024;
    this.maxLineBytes = options.maxLineBytes ?? MAX_TRACE_LINE_BYTES;
    this.scheduler = options.scheduler ?? systemScheduler;
  }

  /** Bytes of the file handed on as lines (the complete lines read so far). */
  get position(): number {
    return this.offset - this.pendingBytes - Math.max(0, this.skipping);
  }

  /** Bytes held for the line still being written: never more than the line cap. */
  get buffered(): number {
    return this.pendingBytes;
  }

  start(): void {
    if (this.stopPoll) return;
    this.stopPoll = this.scheduler.every(this.pollMs, () => this.check());
    this.watch();
    this.check();
  }

  stop(): void {
    this.stopPoll?.();
    this.stopPoll = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /**
   * Read what is new now; the timer and change notices call this, tests may too. Never throws: a
   * read that fails (the disk, the network drive, a listener) is an `error` status naming the
   * file, and the next check tries again.
   */
  check(): void {
    if (this.checking) return;
    this.checking = true;
    try {
      this.readNew();
    } catch (err) {
      this.setStatus('error', `Cannot read ${this.path}: ${err instanceof Error ? err.message : String(err)}; trying again.`);
    } finally {
      this.checking = false;
    }
  }

  private watch(): void {
    if (this.watcher) return;
    try {
      this.watcher = watch(this.path, { persistent: false }, () => this.check());
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      // No notices for this path (missing for now, or unsupported): the poll carries on alone.
      this.watcher = undefined;
    }
  }

  private setStatus(status: TailStatus, message: string): void {
    if (this.state === status && status !== 'truncated' && status !== 'rotated') return;
    this.state = status;
    this.listener.status?.(status, message);
  }

  private startOver(why: 'truncated' | 'rotated'): void {
    this.offset = 0;
    this.pending = [];
    this.pendingBytes = 0;
    this.skipping = -1;
    this.lineCount = 0;
    this.seen = Buffer.alloc(0);
    this.listener.reset?.(why);
    this.setStatus(why, why === 'truncated' ? `${this.path} got shorter; reading it again from the start.` : `${this.path} was replaced by another file; reading the new one from the start.`);
  }

  private readNew(): void {
    let info;
    try {
      info = statSync(this.path);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        if (this.identity !== undefined) this.setStatus('deleted', `${this.path} was deleted; waiting for it to come back.`);
        else this.setStatus('waiting', `${this.path} does not exist yet; waiting for it.`);
        this.watcher?.close();
        this.watcher = undefined;
        return;
      }
      this.setStatus('error', `Cannot read ${this.path}: ${(err as Error).message}`);
      return;
    }
    if (!info.isFile()) {
      this.setStatus('error', `${this.path} is not a file.`);
      return;
    }
    const identity = `${info.dev}:${info.ino}`;
    if (this.identity !== undefined && identity !== this.identity) this.startOver('rotated');
    else if (info.size < this.offset) this.startOver('truncated');
    this.identity = identity;
    this.watch();
    if (info.size === this.offset) {
      this.setStatus('following', `Following ${this.path}.`);
      return;
    }
    let fd: number;
    try {
      fd = openSync(this.path, 'r');
    } catch (err) {
      this.setStatus('error', `Cannot open ${this.path}: ${(err as Error).message}`);
      return;
    }
    const lines: string[] = [];
    try {
      if (this.seen.length > 0 && !this.stillSeen(fd)) {
        this.startOver('truncated');
        if (info.size === 0) return;
      }
      const size = Math.min(fstatSync(fd).size, this.offset + this.maxReadBytes);
      const buffer = Buffer.alloc(Math.max(0, size - this.offset));
      let read = 0;
      while (read < buffer.length) {
        const n = readSync(fd, buffer, read, buffer.length - read, this.offset + read);
        if (n === 0) break;
        read += n;
      }
      this.offset += read;
      this.seen = Buffer.from(Buffer.concat([this.seen, buffer.subarray(0, read)]).subarray(-64));
      this.split(buffer.subarray(0, read), lines);
    } finally {
      closeSync(fd);
    }
    this.setStatus('following', `Following ${this.path}.`);
    if (lines.length) this.listener.lines(lines);
    // More than one slice: take the rest on the next turn of the event loop, not in one long block.
    if (this.offset < info.size && this.stopPoll) this.scheduler.after(0, () => this.check());
  }

  /**
   * Cut `bytes` into lines after what is pending. Lines end at newline bytes, so a character split
   * between two reads is never decoded in halves. A line that grows past the cap is dropped as it
   * is read and handed on empty once its newline comes.
   */
  private split(bytes: Buffer, lines: string[]): void {
    let start = 0;
    for (let nl = bytes.indexOf(0x0a); nl !== -1; nl = bytes.indexOf(0x0a, start)) {
      const piece = bytes.subarray(start, nl);
      start = nl + 1;
      this.lineCount++;
      if (this.skipping !== -1 || this.pendingBytes + piece.length > this.maxLineBytes) {
        this.listener.skipped?.(this.lineCount, Math.max(0, this.skipping) + this.pendingBytes + piece.length + 1);
        lines.push('');
      } else {
        const line = (this.pending.length ? Buffer.concat([...this.pending, piece]) : piece).toString('utf8');
        lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
      }
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = -1;
    }
    const rest = bytes.subarray(start);
    if (rest.length === 0) return;
    if (this.skipping !== -1) this.skipping += rest.length;
    else if (this.pendingBytes + rest.length > this.maxLineBytes) {
      this.skipping = this.pendingBytes + rest.length;
      this.pending = [];
      this.pendingBytes = 0;
    } else {
      // A copy: the read buffer is not kept alive by a short tail of it.
      this.pending.push(Buffer.from(rest));
      this.pendingBytes += rest.length;
    }
  }

  /** True when the bytes just before where reading stopped are still the ones read there. */
  private stillSeen(fd: number): boolean {
    const at = this.offset - this.seen.length;
    const now = Buffer.alloc(this.seen.length);
    const n = readSync(fd, now, 0, now.length, at);
    return n === now.length && now.equals(this.seen);
  }
}
