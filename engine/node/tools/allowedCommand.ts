import { parseCommandLine } from '../../runtime/commandLine';
import { alwaysRefused, grammarFor } from './commandGrammar';

/**
 * Whether a command may run under the `[tools] allow` list (pure). Invariant: an entry permits
 * exactly its own command (token for token, the program written exactly as in the entry, so
 * `./npm`, `/tmp/x/npm` or `NODE_OPTIONS=… npm` never stand for `npm`); more arguments only when
 * the entry's program has a grammar (`commandGrammar.ts`) that accepts every one of them; an
 * argument holding `%`, `data:` or `file:` never passes. The positionals a grammar accepted are
 * returned as `paths`, which the caller must confine to the workspace before anything runs.
 */
export type AllowDecision = { ok: true; entry: string; paths: string[] } | { ok: false; reason: string };

/** What an allow entry permits, in a person's words. */
export function entryPermits(entry: string): string {
  const parsed = parseCommandLine(entry);
  const grammar = parsed.ok ? grammarFor(parsed.argv) : undefined;
  const exact = `exactly "${entry}"`;
  return grammar === undefined ? `${exact} and nothing more` : `${exact}, or ${grammar.permits.replace('<entry>', entry)}`;
}

/** Decide on `argv` (from `parseCommandLine`) against the allow entries, as written. */
export function checkAllowed(argv: readonly string[], allow: readonly string[]): AllowDecision {
  for (const arg of argv) {
    const why = alwaysRefused(arg);
    if (why !== undefined) return { ok: false, reason: `argument ${JSON.stringify(arg)} ${why}` };
  }
  const candidates: { entry: string; tokens: string[] }[] = [];
  for (const entry of allow) {
    const parsed = parseCommandLine(entry);
    if (!parsed.ok || parsed.argv.length === 0 || parsed.argv.length > argv.length) continue;
    if (!parsed.argv.every((token, i) => token === argv[i])) continue;
    if (parsed.argv.length === argv.length) return { ok: true, entry, paths: [] };
    candidates.push({ entry, tokens: parsed.argv });
  }
  candidates.sort((a, b) => b.tokens.length - a.tokens.length);
  let refusal: string | undefined;
  for (const { entry, tokens } of candidates) {
    const grammar = grammarFor(tokens);
    const extra = argv.slice(tokens.length);
    if (grammar === undefined) {
      refusal ??= `"${entry}" permits ${entryPermits(entry)}, and ${JSON.stringify(extra[0])} follows it`;
      continue;
    }
    const result = grammar.check(extra);
    if (result.ok) return { ok: true, entry, paths: result.paths };
    refusal ??= `argument ${JSON.stringify(result.argument)} ${result.why}; "${entry}" permits ${entryPermits(entry)}`;
  }
  if (refusal !== undefined) return { ok: false, reason: refusal };
  return { ok: false, reason: `it is not an allowed command. Allowed: ${allow.map((e) => `${entryPermits(e)}`).join('; ')}` };
}
