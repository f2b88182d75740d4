import type { Envelope, StrataEvent } from '../contract';
import { Catalog } from '../catalog/Catalog';
import { type Clock, systemClock } from '../ports/Clock';
import type { Scheduler } from '../ports/Scheduler';
import type { ClientSession } from './ClientSession';
import { DemoPlayer, type DemoChange } from './DemoPlayer';
import { loadDemoScenario } from './demoScenario';
import { dispatch } from './dispatch';
import { EventHub } from './EventHub';
import { createHandlers, type Handlers } from './handlers';
import { systemScheduler } from './systemScheduler';
import { toAgentDto } from './toAgentDto';

export interface HostOptions {
  /** SQLite file of the workspace catalog (created and migrated if needed). */
  catalogPath: string;
  workspaceName: string;
  /** Strata's version, reported by `health`. */
  version: string;
  /** `resources/demo`: seed the demo workspace from it on first run and play its scenario. */
  demoDir?: string;
  /** Milliseconds between demo steps; 0 or absent seeds without playing. */
  demoTickMs?: number;
  clock?: Clock;
  scheduler?: Scheduler;
  /** Where unexpected handler failures are reported (they also reach the caller as `internal`). */
  onInternalError?: (err: unknown, command: string) => void;
}

/** A view connected to the host: call commands, receive subscribed events. */
export interface HostConnection {
  readonly session: ClientSession;
  /** Validate and run one contract command; never throws. */
  call(name: unknown, args: unknown): Promise<Envelope<unknown>>;
  close(): void;
}

/**
 * The Strata host: owns the workspace catalog (and later the engine and the agent runtime),
 * answers contract commands and pushes contract events. Plain Node: Electron main and the
 * headless web host are two thin transports over the same Host.
 */
export class Host {
  private readonly hub = new EventHub();
  private readonly handlers: Handlers;
  private readonly stopDemo: () => void;
  private closed = false;

  private constructor(
    readonly catalog: Catalog,
    private readonly options: HostOptions,
    private readonly demo: DemoPlayer | undefined,
  ) {
    const clock = options.clock ?? systemClock;
    const startedAt = clock.now();
    this.handlers = createHandlers({
      catalog,
      version: options.version,
      workspaceName: options.workspaceName,
      uptimeMs: () => clock.now() - startedAt,
    });
    const tick = options.demoTickMs ?? 0;
    this.stopDemo = demo && tick > 0 ? (options.scheduler ?? systemScheduler).every(tick, () => this.stepDemo()) : () => {};
  }

  /** Open the catalog, seed the demo workspace on first run and start playing it. */
  static open(options: HostOptions): Host {
    const scenario = options.demoDir ? loadDemoScenario(options.demoDir) : undefined;
    const catalog = Catalog.open(options.catalogPath);
    try {
      const demo = scenario ? new DemoPlayer(catalog, scenario, options.clock ?? systemClock) : undefined;
      demo?.seedIfNew();
      return new Host(catalog, options, demo);
    } catch (err) {
      catalog.close();
      throw err;
    }
  }

  /** Attach a view. `deliver` receives the events the view subscribes to. */
  connect(deliver: (event: StrataEvent) => void): HostConnection {
    const session = this.hub.open(deliver);
    return {
      session,
      call: (name, args) =>
        this.closed
          ? Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'The Strata host is shut down.' } })
          : dispatch(this.handlers, name, args, session, this.options.onInternalError),
      close: () => session.close(),
    };
  }

  /** Advance the demo scenario by one step (the timer calls this; tests call it directly). */
  stepDemo(): void {
    if (!this.demo || this.closed) return;
    this.publish(this.demo.step());
  }

  private publish(change: DemoChange): void {
    for (const a of change.agents) this.hub.emit({ name: 'agent.updated', payload: { agent: toAgentDto(a) } });
    for (const entry of change.log) this.hub.emit({ name: 'log', payload: { entry } });
  }

  /** Stop timers, drop sessions and close the catalog. Idempotent. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.stopDemo();
    this.hub.closeAll();
    this.catalog.close();
  }
}
