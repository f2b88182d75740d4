import { addRecent, serializeRecent } from './recentWorkspaces';

/** A host as the session needs it: something to register on IPC and to close. */
export interface ClosableHost {
  close(): void;
}

export interface WorkspaceSessionDeps<H extends ClosableHost> {
  /** Open the host of a workspace folder (null: the demo); throws with a message a person can act on. */
  open(dir: string | null): { host: H; name: string };
  /** Put the host on the transport; returns the function that takes it off again. */
  register(host: H): () => void;
  /** Persist the recent list (the shell writes `recent-workspaces.json`). */
  saveRecent(file: ReturnType<typeof serializeRecent>): void;
  /** Tell the OS about a recently opened folder (the dock or jump list), where it keeps one. */
  noteRecent?(dir: string): void;
}

/**
 * The open workspace of the desktop app: its host on the transport, its name and the recent list.
 * Switching opens the new workspace's host first and retires the old one only when that worked,
 * so a folder that cannot be opened leaves the current workspace serving as it was.
 */
export class WorkspaceSession<H extends ClosableHost> {
  private current: { host: H; dir: string | null; name: string; unregister: () => void } | undefined;
  private recentList: string[];

  constructor(
    private readonly deps: WorkspaceSessionDeps<H>,
    recent: readonly string[] = [],
  ) {
    this.recentList = [...recent];
  }

  get host(): H | undefined {
    return this.current?.host;
  }

  /** The open folder; null for the demo workspace (or before anything is open). */
  get workspace(): string | null {
    return this.current?.dir ?? null;
  }

  get name(): string | undefined {
    return this.current?.name;
  }

  get recent(): readonly string[] {
    return this.recentList;
  }

  /** Open `dir` (null: the demo) and make it current; throws, changing nothing, when it cannot be opened. */
  open(dir: string | null): void {
    const opened = this.deps.open(dir);
    const previous = this.current;
    previous?.unregister();
    previous?.host.close();
    this.current = { host: opened.host, dir, name: opened.name, unregister: this.deps.register(opened.host) };
    if (dir !== null) {
      this.recentList = addRecent(this.recentList, dir);
      this.deps.saveRecent(serializeRecent(this.recentList));
      this.deps.noteRecent?.(dir);
    }
  }

  clearRecent(): void {
    this.recentList = [];
    this.deps.saveRecent(serializeRecent(this.recentList));
  }

  /** Take the host off the transport and close it (the catalog checkpoints its WAL). */
  close(): void {
    this.current?.unregister();
    this.current?.host.close();
    this.current = undefined;
  }
}
