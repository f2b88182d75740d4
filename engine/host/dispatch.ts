import { Commands, type Envelope, type ErrorIssue, isCommandName, StrataError } from '../contract';
import type { ClientSession } from './ClientSession';
import type { Handler, Handlers } from './handlers';
import { wireErrorOf } from './wireErrorOf';

/**
 * The one path every call takes on every transport: check the name, validate the arguments against
 * the contract, run the handler, wrap the outcome in an envelope. Nothing reaches a handler
 * unvalidated, so a malformed call changes nothing. A domain error is answered with its mapped code
 * (`wireErrorOf`); only an unexpected failure is `internal` and reported through `onInternalError`.
 * Never throws.
 */
export async function dispatch(
  handlers: Handlers,
  name: unknown,
  rawArgs: unknown,
  session: ClientSession,
  onInternalError: (err: unknown, name: string) => void = () => {},
): Promise<Envelope<unknown>> {
  if (!isCommandName(name)) {
    return fail(new StrataError('unknown_command', `Unknown command ${JSON.stringify(name)}.`));
  }
  const parsed = Commands[name].args.safeParse(rawArgs === undefined ? {} : rawArgs);
  if (!parsed.success) {
    const issues: ErrorIssue[] = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    const where = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
    return fail(new StrataError('invalid_args', `Invalid arguments for "${name}": ${where}`, issues));
  }
  try {
    const handler = handlers[name] as Handler<typeof name>;
    const value = await handler(parsed.data as never, session);
    return { ok: true, value };
  } catch (err) {
    // The one place a domain error becomes an envelope code (`[error-model]`); anything else is a bug.
    const wire = wireErrorOf(err);
    if (wire) return fail(wire);
    onInternalError(err, name);
    return fail(new StrataError('internal', `"${name}" failed: ${err instanceof Error ? err.message : String(err)}`));
  }
}

function fail(err: StrataError): Envelope<never> {
  return { ok: false, error: err.toDto() };
}
