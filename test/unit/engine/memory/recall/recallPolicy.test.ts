import { describe, expect, it } from 'vitest';
import { AgentRoleSchema, type AgentRole } from '../../../../../engine/contract';
import type { Scope } from '../../../../../engine/pack/Scope';
import { recallAllowed } from '../../../../../engine/memory/recall/recallPolicy';

const roles = AgentRoleSchema.options;
const scopes: [label: string, scope: Scope][] = [
  ['default scope', {}],
  ['scope keeps memory', { excludeProjectMemory: false }],
  ['scope excludes memory', { excludeProjectMemory: true }],
];

/** The spec's table: who may have project memory recalled, with memory on. */
const expected = (role: AgentRole, scope: Scope): boolean => {
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
      return scope.excludeProjectMemory !== true;
  }
};

describe('recallAllowed', () => {
  it('[recall-roles] the table covers every role of the contract', () => {
    expect([...roles].sort()).toEqual(['architect', 'debug', 'integration', 'primary', 'probe', 'reviewer', 'test', 'worker']);
  });

  it.each(roles.flatMap((role) => scopes.map(([label, scope]) => [role, label, scope] as const)))(
    '[recall-roles] memory off: %s with %s gets no recall',
    (role, _label, scope) => {
      expect(recallAllowed(role, scope, false)).toBe(false);
    },
  );

  it.each([
    ['primary', 'default scope', {}, true],
    ['worker', 'default scope', {}, true],
    ['debug', 'default scope', {}, true],
    ['integration', 'default scope', {}, true],
    // The roles that always have it keep it even when their scope says otherwise: their recall is
    // decided by role; the scope still filters the items at build time (`[scope-no-memory]`).
    ['primary', 'scope excludes memory', { excludeProjectMemory: true }, true],
    ['worker', 'scope excludes memory', { excludeProjectMemory: true }, true],
    ['probe', 'default scope', {}, false],
    ['reviewer', 'default scope', {}, false],
    ['probe', 'scope keeps memory', { excludeProjectMemory: false }, false],
    ['reviewer', 'scope keeps memory', { excludeProjectMemory: false }, false],
    ['architect', 'default scope', {}, true],
    ['architect', 'scope keeps memory', { excludeProjectMemory: false }, true],
    ['architect', 'scope excludes memory', { excludeProjectMemory: true }, false],
    ['test', 'default scope', {}, true],
    ['test', 'scope keeps memory', { excludeProjectMemory: false }, true],
    ['test', 'scope excludes memory', { excludeProjectMemory: true }, false],
  ] as const)('[recall-roles] memory on: %s with %s → %s', (role, _label, scope, allowed) => {
    expect(recallAllowed(role, scope, true)).toBe(allowed);
  });

  it.each(roles.flatMap((role) => scopes.map(([label, scope]) => [role, label, scope] as const)))(
    '[recall-roles] memory on: %s with %s follows the spec table',
    (role, _label, scope) => {
      expect(recallAllowed(role, scope, true)).toBe(expected(role, scope));
    },
  );
});
