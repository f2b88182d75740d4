import { closeSync, type FSWatcher, fstatSync, openSync, readSync, statSync, watch } from 'node:fs';

/** What happened to a followed file besides growing. */
export type TailStatus = 'following' | 'waiting' | 'truncated' | 'rotated' | 'deleted' | 'error';

export interface LiveTailListener {
  /** Complete lines appended since the last call, in order, without their newline. */
  lines(lines: string[]): void;
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
  /** Bytes read after the last newline: a line still being written. */
  private pending: Buffer = Buffer.alloc(0);
  /** The last bytes read (up to 64), to notice a file rewritten and grown past where reading stopped. */
  private seen: Buffer = Buffer.alloc(0);
  private identity: string | undefined;
  private state: TailStatus | undefined;
  private timer: ReturnType<typeof setInterval> | undefined;
  private watcher: FSWatcher | undefined;
  private checking = false;
  private readonly pollMs: number;
  private readonly maxReadBytes: number;

  constructor(
    readonly path: string,
    private readonly listener: LiveTailListener,
    options: LiveTailOptions = {},
  ) {
    this.pollMs = options.pollMs ?? 250;
    this.maxReadBytes = options.maxReadBytes ?? 4 * 1024 * 1024;
  }

  /** Bytes of the file handed on as lines (the complete lines read so far). */
  get position(): number {
    return this.offset - this.pending.length;
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.check(), this.pollMs);
    this.timer.unref?.();
    this.watch();
    this.check();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
  }

  /** Read what is new now; the timer and change notices call this, tests may too. */
  check(): void {
    if (this.checking) return;
    this.checking = true;
    try {
      this.readNew();
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
    this.pending = Buffer.alloc(0);
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
      // Lines end at newline bytes, so a character split between two reads is never decoded in halves.
      const bytes = Buffer.concat([this.pending, buffer.subarray(0, read)]);
      this.offset += read;
      this.seen = Buffer.from(Buffer.concat([this.seen, buffer.subarray(0, read)]).subarray(-64));
      const cut = bytes.lastIndexOf(0x0a);
      this.pending = cut === -1 ? bytes : Buffer.from(bytes.subarray(cut + 1));
      if (cut !== -1) for (const line of bytes.subarray(0, cut).toString('utf8').split('\n')) lines.push(line.endsWith('\r') ? line.slice(0, -1) : line);
    } finally {
      closeSync(fd);
    }
    this.setStatus('following', `Following ${this.path}.`);
    if (lines.length) this.listener.lines(lines);
    // More than one slice: take the rest on the next turn of the event loop, not in one long block.
    if (this.offset < info.size && this.timer) setImmediate(() => this.check());
  }

  /** True when the bytes just before where reading stopped are still the ones read there. */
  private stillSeen(fd: number): boolean {
    const at = this.offset - this.seen.length;
    const now = Buffer.alloc(this.seen.length);
    const n = readSync(fd, now, 0, now.length, at);
    return n === now.length && now.equals(this.seen);
  }
}
