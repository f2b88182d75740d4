import type { LiveSessionDetailDto, LiveSessionDto, SessionDto } from '../../../engine/contract';

/**
 * Actions of the sessions slice: the session files the host found (`listSessions`), the attached
 * ones (`listAttached`, `attachSession`, `detachSession`) and their series (`getSession`). Each is a
 * command's answer or error as it came back; nothing here is an optimistic change.
 */
export type SessionsAction =
  | { type: 'sessions.listing' }
  | { type: 'sessions.listed'; sessions: SessionDto[]; roots: string[] }
  | { type: 'sessions.listFailed'; message: string }
  | { type: 'sessions.attachedLoading' }
  | { type: 'sessions.attachedSnapshot'; sessions: LiveSessionDto[] }
  | { type: 'sessions.attachedFailed'; message: string }
  | { type: 'sessions.attaching'; path: string }
  | { type: 'sessions.attachDone'; session: LiveSessionDto; message: string }
  | { type: 'sessions.attachFailed'; path: string; message: string }
  | { type: 'sessions.detaching'; sessionId: string }
  | { type: 'sessions.detachDone'; sessionId: string; message: string }
  | { type: 'sessions.detachFailed'; sessionId: string; message: string }
  | { type: 'sessions.detail'; detail: LiveSessionDetailDto }
  | { type: 'sessions.detailFailed'; sessionId: string; message: string }
  /** A message of the rail's own (not a command's answer), e.g. why a session cannot be shown yet. */
  | { type: 'sessions.notice'; status: 'ok' | 'error'; message: string }
  | { type: 'sessions.dismissNotice' };

/** Host events the sessions slice reduces (the controller subscribes to them). */
export const SESSION_EVENTS = ['session.updated', 'session.detached'] as const;
