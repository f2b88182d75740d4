import type { ContextItem, InfoClass, ItemKind, Source } from '../items/ContextItem';
import { tierOf } from '../items/tiers';
import { durabilityScore } from './score';
import { dirOf, terms } from './terms';

/** Codes of the closed enumerations, for the integer columns. */
export const KIND_CODES: readonly ItemKind[] = [
  'objective', 'task', 'acceptance', 'constraint', 'code', 'failure', 'finding', 'decision',
  'architecture', 'report', 'tool_output', 'transcript', 'note', 'input',
];
const CLASS_CODES: readonly InfoClass[] = ['ephemeral', 'task_state', 'finding', 'project_memory', 'raw_history'];
const SOURCE_CODES: readonly Source[] = [
  'user_requirement', 'verified_fact', 'worker_finding', 'unverified_hypothesis', 'generated_summary',
  'test_result', 'repository_source', 'parent_report', 'recalled_memory',
];

type Typed = Float64Array | Int32Array | Uint8Array;

/** Growable column of numbers. */
class Column<T extends Typed> {
  constructor(
    public data: T,
    private readonly make: (n: number) => T,
  ) {}
  grow(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = this.make(Math.max(capacity, this.data.length * 2));
    next.set(this.data);
    this.data = next;
  }
}

const f64 = () => new Column(new Float64Array(1024), (n) => new Float64Array(n));
const i32 = () => new Column(new Int32Array(1024), (n) => new Int32Array(n));
const u8 = () => new Column(new Uint8Array(1024), (n) => new Uint8Array(n));

const push = (m: Map<string, number[]>, key: string, slot: number) => {
  const list = m.get(key);
  if (list) {
    if (list[list.length - 1] !== slot) list.push(slot);
  } else m.set(key, [slot]);
};

/**
 * The item pool in arrival order, with what scoring needs kept as columns and inverted indexes
 * (terms, files, folders, symbols -> slots), so a build scores 100k items without touching their
 * text (`[score-fresh]` stays exact: `scoreAll` computes the same score as `scoreItem`).
 * Slots are never reused: a slot's number is the item's arrival order among the slots kept. A
 * removed slot keeps its last value (records of past builds read it) until `compact` drops the
 * removed slots and renumbers the rest, keeping their order (`[pool-compaction]`). Only the Engine
 * changes it.
 */
export class PoolIndex {
  private slots: ContextItem[] = [];
  private readonly slotById = new Map<string, number>();
  readonly at = f64();
  readonly confidence = f64();
  readonly prior = f64();
  readonly durability = f64();
  /** Rendered-block tokens per slot, -1 when not counted yet. */
  readonly tokens = f64();
  /** 1 for a live slot, 0 for a removed one. */
  readonly alive = u8();
  readonly tier = u8();
  /** 1 when pinned or mandatory. */
  readonly protectedFlag = u8();
  readonly kind = u8();
  readonly cls = u8();
  readonly source = u8();
  readonly hasFiles = u8();
  readonly hasSymbols = u8();
  /** Interned task id and phase (-1: no phase). */
  readonly task = i32();
  readonly phase = i32();
  /** Interned combination of what exclusions may decide on (see `exclusionCombo`). */
  readonly combo = i32();
  private readonly combos = new Map<string, number>();
  private readonly codes = new Map<string, number>();
  private readonly columns = [this.at, this.confidence, this.prior, this.durability, this.tokens, this.alive, this.tier, this.protectedFlag, this.kind, this.cls, this.source, this.hasFiles, this.hasSymbols, this.task, this.phase, this.combo];
  readonly termPostings = new Map<string, number[]>();
  readonly filePostings = new Map<string, number[]>();
  readonly dirPostings = new Map<string, number[]>();
  readonly symbolPostings = new Map<string, number[]>();
  private live = 0;
  private readonly scratchBuffers = new Map<string, Float64Array | Uint32Array | Int32Array | Uint8Array>();

  constructor(items: Iterable<ContextItem> = []) {
    for (const item of items) this.add(item);
  }

  /** Slots handed out so far (alive or removed); the next arrival gets this number. */
  get arrivals(): number {
    return this.slots.length;
  }

  get size(): number {
    return this.live;
  }

  /** Removed slots still held (their last values and postings) until the next `compact`. */
  get removed(): number {
    return this.slots.length - this.live;
  }

  /**
   * Drop the removed slots: live items move down, keeping their arrival order, with their columns
   * (counted tokens too) and postings; terms, files, folders and symbols only removed items had
   * leave the postings. Returns `renumber`, which maps an old arrival count (a `seenSeq`: "the
   * first n slots were seen") to the new one, so callers keep what they had seen.
   */
  compact(): { renumber: (seen: number) => number } {
    const n = this.slots.length;
    // liveBefore[k] = live slots among the first k, which is the new number of old slot k when it is live.
    const liveBefore = new Int32Array(n + 1);
    for (let slot = 0; slot < n; slot++) liveBefore[slot + 1] = (liveBefore[slot] as number) + (this.alive.data[slot] === 1 ? 1 : 0);
    const renumber = (seen: number) => liveBefore[Math.max(0, Math.min(n, seen))] as number;
    if (this.live === n) return { renumber };
    const isLive = (oldSlot: number) => liveBefore[oldSlot + 1] !== liveBefore[oldSlot];
    for (const c of this.columns) {
      const data = c.data;
      for (let slot = 0; slot < n; slot++) if (isLive(slot)) data[liveBefore[slot] as number] = data[slot] as number;
      // Give back most of a column that grew for a pool many times larger than what is left.
      if (data.length > 4 * Math.max(this.live, 1024)) c.data = data.slice(0, Math.max(this.live * 2, 1024)) as typeof data;
      c.data.fill(0, this.live);
    }
    const slots: ContextItem[] = [];
    for (let slot = 0; slot < n; slot++) {
      if (!isLive(slot)) continue;
      const item = this.slots[slot] as ContextItem;
      slots.push(item);
      this.slotById.set(item.id, slots.length - 1);
    }
    this.slots = slots;
    for (const postings of [this.termPostings, this.filePostings, this.dirPostings, this.symbolPostings]) {
      for (const [key, list] of postings) {
        let w = 0;
        for (const oldSlot of list) if (isLive(oldSlot)) list[w++] = liveBefore[oldSlot] as number;
        if (w === 0) postings.delete(key);
        else list.length = w;
      }
    }
    this.scratchBuffers.clear();
    return { renumber };
  }

  /**
   * A zeroed working array of at least `n` elements, reused across builds so scoring a large
   * pool does not allocate megabytes each time. Valid until the next call with the same name.
   */
  scratch<T extends Float64Array | Uint32Array | Int32Array | Uint8Array>(name: string, n: number, make: (n: number) => T): T {
    let buf = this.scratchBuffers.get(name) as T | undefined;
    if (!buf || buf.length < n) {
      buf = make(Math.max(n, 1024, buf ? buf.length * 2 : 0));
      this.scratchBuffers.set(name, buf);
    }
    const view = buf.subarray(0, n) as T;
    view.fill(0);
    return view;
  }

  /** A stable integer for a string (task ids, phases), shared by queries and columns. */
  code(s: string): number {
    let c = this.codes.get(s);
    if (c === undefined) {
      c = this.codes.size;
      this.codes.set(s, c);
    }
    return c;
  }

  /** The code of `s` if it was ever seen, else -2 (matches nothing). */
  codeIfKnown(s: string): number {
    return this.codes.get(s) ?? -2;
  }

  has(id: string): boolean {
    return this.slotById.has(id);
  }

  get(id: string): ContextItem | undefined {
    const slot = this.slotById.get(id);
    return slot === undefined ? undefined : this.slots[slot];
  }

  slotOf(id: string): number | undefined {
    return this.slotById.get(id);
  }

  /** The item in a slot, undefined once removed. */
  itemAt(slot: number): ContextItem | undefined {
    return this.alive.data[slot] === 1 ? this.slots[slot] : undefined;
  }

  /** The last value a slot held, also after removal (for records of past builds). */
  lastItemAt(slot: number): ContextItem | undefined {
    return this.slots[slot];
  }

  add(item: ContextItem): number {
    if (this.slotById.has(item.id)) throw new Error(`add: item ${item.id} is already indexed`);
    const slot = this.slots.length;
    for (const c of this.columns) c.grow(slot + 1);
    this.slots.push(item);
    this.slotById.set(item.id, slot);
    this.live++;
    this.setColumns(slot, item);
    for (const t of terms(`${item.title}\n${item.content}`)) push(this.termPostings, t, slot);
    for (const f of item.provenance.files) {
      push(this.filePostings, f, slot);
      const d = dirOf(f);
      if (d) push(this.dirPostings, d, slot);
    }
    for (const s of item.provenance.symbols) push(this.symbolPostings, s, slot);
    return slot;
  }

  /**
   * Replace an item by a new value with the same id and the same content, files and symbols
   * (pin, verify, promote): its slot, arrival order and postings stay.
   */
  replace(item: ContextItem): void {
    const slot = this.slotById.get(item.id);
    if (slot === undefined) throw new Error(`replace: no item ${item.id}`);
    this.slots[slot] = item;
    this.setColumns(slot, item);
  }

  remove(id: string): void {
    const slot = this.slotById.get(id);
    if (slot === undefined) return;
    this.slotById.delete(id);
    this.alive.data[slot] = 0;
    this.live--;
  }

  *values(): IterableIterator<ContextItem> {
    for (let slot = 0; slot < this.slots.length; slot++) if (this.alive.data[slot] === 1) yield this.slots[slot] as ContextItem;
  }

  private setColumns(slot: number, item: ContextItem): void {
    const p = item.provenance;
    this.at.data[slot] = p.at;
    this.confidence.data[slot] = p.confidence;
    this.prior.data[slot] = p.relevance;
    this.durability.data[slot] = durabilityScore[p.durability];
    this.tokens.data[slot] = -1;
    this.alive.data[slot] = 1;
    this.tier.data[slot] = tierOf(item);
    this.protectedFlag.data[slot] = item.pinned || item.mandatory ? 1 : 0;
    this.kind.data[slot] = KIND_CODES.indexOf(item.kind);
    this.cls.data[slot] = CLASS_CODES.indexOf(item.class);
    this.source.data[slot] = SOURCE_CODES.indexOf(p.source);
    this.hasFiles.data[slot] = p.files.length > 0 ? 1 : 0;
    this.hasSymbols.data[slot] = p.symbols.length > 0 ? 1 : 0;
    this.task.data[slot] = this.code(p.taskId);
    this.phase.data[slot] = item.phase === undefined ? -1 : this.code(item.phase);
    const key = `${item.class}|${item.kind}|${p.source}|${p.taskId}|${item.phase ?? ''}|${item.pinned || item.mandatory}|${item.audience ?? ''}`;
    let combo = this.combos.get(key);
    if (combo === undefined) {
      combo = this.combos.size;
      this.combos.set(key, combo);
    }
    this.combo.data[slot] = combo;
  }

  /**
   * Distinct combinations of what a scope or strategy may decide on (class, kind, source, task,
   * phase, pinned or mandatory, audience); `combo` holds each slot's. A build decides each combination once.
   */
  get comboCount(): number {
    return this.combos.size;
  }
}
