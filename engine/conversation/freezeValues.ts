import type { Audit } from './ContextAudit';
import type { Message, TurnGroup } from './Message';

/**
 * Deep-freezing of the values the ContextManager stores and hands out. Invariant: once stored, a
 * message, group or audit never changes, so the manager can share it with callers (builds,
 * snapshots, audit reads) without copying, and a caller's mutation attempt throws instead of
 * silently editing history.
 */
export function freezeMessage<M extends Message>(message: M): M {
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) Object.freeze(call);
    Object.freeze(message.toolCalls);
  }
  if (message.role === 'system' && message.kind === 'summary') Object.freeze(message.sourceTurnIds);
  return Object.freeze(message);
}

/** A group and all its messages, frozen. */
export function freezeGroup(group: TurnGroup): TurnGroup {
  for (const m of group.messages) freezeMessage(m);
  Object.freeze(group.messages);
  return Object.freeze(group);
}

/** An audit and its id lists, frozen. */
export function freezeAudit(audit: Audit): Audit {
  for (const list of [audit.removedMessageIds, audit.removedGroupIds, audit.removedTurnIds, audit.addedMessageIds]) Object.freeze(list);
  return Object.freeze(audit);
}
