/** Structured JSON logs. Every field is written as is: never pass a secret. */
export const logger = {
  info: (msg: string, fields: Record<string, unknown> = {}) => write('info', msg, fields),
  warn: (msg: string, fields: Record<string, unknown> = {}) => write('warn', msg, fields),
  error: (msg: string, fields: Record<string, unknown> = {}) => write('error', msg, fields),
};

function write(level: string, msg: string, fields: Record<string, unknown>): void {
  process.stdout.write(JSON.stringify({ level, msg, ...fields, at: new Date().toISOString() }) + '\n');
}
