import { claudeCodeLongTask } from './claudeCodeLongTask';
import { claudeCodeScenario } from './claudeCodeScenario';
import { codexLongTask } from './codexLongTask';
import { codexScenario } from './codexScenario';
import type { RealClientScenario } from './RealClientScenario';

const SCENARIOS = {
  'claude-code': claudeCodeScenario,
  codex: codexScenario,
  'claude-code-long-task': claudeCodeLongTask,
  'codex-long-task': codexLongTask,
} satisfies Record<string, RealClientScenario>;

/** A scenario by name: each client's three-turn scenario is named after the client. */
export type ScenarioName = keyof typeof SCENARIOS;

export const scenarioFor = (name: ScenarioName): RealClientScenario => SCENARIOS[name];
