import type { AgentRole } from '../../contract';
import type { Scope } from '../../pack/Scope';

/**
 * Who gets project memory recalled (spec "Recalled project memory", `[recall-roles]`): with
 * `Settings.memory` off nobody does; the primary, workers, debug and integration agents do;
 * probes and reviewers never do; architect and test agents follow their scope (no recall when
 * their scope excludes project memory).
 */
export function recallAllowed(role: AgentRole, scope: Scope, memoryEnabled: boolean): boolean {
  if (!memoryEnabled) return false;
  switch (role) {
    case 'primary':
    case 'worker':
    case 'debug':
    case 'integration':
      return true;
    case 'probe':
    case 'reviewer':
      return false;
    case 'architect':
    case 'test':
      return !scope.excludeProjectMemory;
  }
}
