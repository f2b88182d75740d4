import { claudeCodeScenario } from './claudeCodeScenario';
import { codexScenario } from './codexScenario';
import type { RealClientName, RealClientScenario } from './RealClientScenario';

const SCENARIOS: Record<RealClientName, RealClientScenario> = { 'claude-code': claudeCodeScenario, codex: codexScenario };

export const scenarioFor = (client: RealClientName): RealClientScenario => SCENARIOS[client];
