import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AgentRoleSchema, AgentStatusSchema, DurabilitySchema, InfoClassSchema, LogLevelSchema, SourceSchema, UsageTotalsSchema } from '../contract';

/**
 * The bundled demo workspace (`resources/demo/scenario.json`): agents with their identity and a
 * script of changes the host plays on a timer, so the control room shows a living agent tree with
 * no key and no network. The runtime replaces the timer with real drivers later.
 */
const DemoAgentSchema = z
  .object({
    agentId: z.string().min(1),
    parent: z.string().min(1).nullable(),
    role: AgentRoleSchema,
    task: z.string().min(1),
    model: z.string().min(1),
    budget: z.number().int().positive(),
  })
  .strict();

/** An item the step adds to the engine's pool; its time is the step's scenario time. */
const DemoItemSchema = z
  .object({
    id: z.string().min(1),
    kind: z.enum(['objective', 'task', 'acceptance', 'constraint', 'code', 'failure', 'finding', 'decision', 'architecture', 'report', 'tool_output', 'transcript', 'note', 'input']),
    class: InfoClassSchema,
    title: z.string().min(1),
    content: z.string().min(1),
    source: SourceSchema,
    /** Producer; defaults to the step's agent. */
    agentId: z.string().min(1).optional(),
    files: z.array(z.string()).optional(),
    symbols: z.array(z.string()).optional(),
    durability: DurabilitySchema.optional(),
    pinned: z.boolean().optional(),
    mandatory: z.boolean().optional(),
    signature: z.string().optional(),
  })
  .strict();

const DemoStepSchema = z
  .object({
    agentId: z.string().min(1),
    status: AgentStatusSchema.optional(),
    /** Added to the agent's usage totals (one provider call's accounting). */
    usage: UsageTotalsSchema.optional(),
    /** Items entering the pool at this step. */
    items: z.array(DemoItemSchema).optional(),
    /** The agent takes a turn: the engine builds its context for this phase. */
    build: z.object({ phase: z.string().min(1), input: z.string().optional() }).strict().optional(),
    /** The provider refused the agent's prompt: the engine refreshes it. */
    contextLimit: z.string().min(1).optional(),
    level: LogLevelSchema.default('info'),
    log: z.string().min(1),
  })
  .strict();

export const DemoScenarioSchema = z
  .object({
    schemaVersion: z.literal(1),
    workspace: z.object({ name: z.string().min(1) }).strict(),
    agents: z.array(DemoAgentSchema).min(1),
    steps: z.array(DemoStepSchema).min(1),
  })
  .strict()
  .superRefine((s, ctx) => {
    const ids = new Set<string>();
    s.agents.forEach((a, i) => {
      if (ids.has(a.agentId)) ctx.addIssue({ code: 'custom', path: ['agents', i, 'agentId'], message: `duplicate agent id "${a.agentId}"` });
      if (a.parent !== null && !ids.has(a.parent)) {
        ctx.addIssue({ code: 'custom', path: ['agents', i, 'parent'], message: `parent "${a.parent}" must be listed before "${a.agentId}"` });
      }
      ids.add(a.agentId);
    });
    const itemIds = new Set<string>();
    s.steps.forEach((st, i) => {
      if (!ids.has(st.agentId)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'agentId'], message: `unknown agent "${st.agentId}"` });
      (st.items ?? []).forEach((it, j) => {
        if (itemIds.has(it.id)) ctx.addIssue({ code: 'custom', path: ['steps', i, 'items', j, 'id'], message: `duplicate item id "${it.id}"` });
        itemIds.add(it.id);
      });
    });
  });

export type DemoScenario = z.infer<typeof DemoScenarioSchema>;
export type DemoStep = DemoScenario['steps'][number];
export type DemoItem = z.infer<typeof DemoItemSchema>;

/** Read and validate the scenario; the error names the file and the first offending field. */
export function loadDemoScenario(demoDir: string): DemoScenario {
  const file = join(demoDir, 'scenario.json');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`Cannot read the demo scenario ${file}: ${(err as Error).message}`);
  }
  const parsed = DemoScenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`Invalid demo scenario ${file}: ${first ? `${first.path.join('.')}: ${first.message}` : 'unknown error'}`);
  }
  return parsed.data;
}
