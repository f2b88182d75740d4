import { vi, type Mock } from 'vitest';
import type { SessionsController } from '../../../renderer/controller/sessionsController';

/** The attach rail's controller methods as spies; `watchSession` hands back a release spy. */
export type SessionsSpies = { [K in keyof SessionsController]: Mock<SessionsController[K]> };

export function sessionsSpies(): SessionsSpies {
  return {
    loadSessions: vi.fn<SessionsController['loadSessions']>(async () => undefined),
    loadAttached: vi.fn<SessionsController['loadAttached']>(async () => undefined),
    attachSession: vi.fn<SessionsController['attachSession']>(async () => undefined),
    detachSession: vi.fn<SessionsController['detachSession']>(async () => undefined),
    watchSession: vi.fn<SessionsController['watchSession']>(() => vi.fn<() => void>()),
  };
}
