import { describe, expect, it } from 'vitest';
import { parseShellOptions, UsageError } from '../../../electron/shared/shellOptions';

/** The UsageError `parse` throws; fails the test when it throws something else or nothing. */
function usageErrorOf(parse: () => unknown): UsageError {
  try {
    parse();
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return err as UsageError;
  }
  throw new Error('expected a UsageError, but parsing succeeded');
}

describe('parseShellOptions', () => {
  it('returns the defaults for no arguments', () => {
    expect(parseShellOptions([])).toEqual({ help: false, positional: [], sessionsDirs: [] });
  });

  it.each([
    [['--workspace', '/tmp/ws'], '/tmp/ws'],
    [['--workspace=/tmp/ws'], '/tmp/ws'],
    [['--workspace=a=b'], 'a=b'],
    [['--workspace', 'relative/dir'], 'relative/dir'],
  ])('reads the workspace from %j', (argv, workspace) => {
    expect(parseShellOptions(argv).workspace).toBe(workspace);
  });

  it.each([
    [['--port', '8080'], 8080],
    [['--port=8080'], 8080],
    [['--port', '0'], 0],
    [['--port=65535'], 65535],
  ])('reads the port from %j', (argv, port) => {
    expect(parseShellOptions(argv).port).toBe(port);
  });

  it.each([[['--help']], [['-h']], [['--workspace', 'w', '-h']]])('sets help for %j', (argv) => {
    expect(parseShellOptions(argv).help).toBe(true);
  });

  it('collects every --sessions-dir, in order, and refuses one without a folder', () => {
    expect(parseShellOptions(['--sessions-dir', '/a', '--sessions-dir=/b', 'web']).sessionsDirs).toEqual(['/a', '/b']);
    expect(() => parseShellOptions(['--sessions-dir'])).toThrow('--sessions-dir needs a value.');
    expect(() => parseShellOptions(['--sessions-dir', '--port', '1'])).toThrow('--sessions-dir needs a value.');
  });

  it('keeps positional arguments in order around the options', () => {
    const opts = parseShellOptions(['list', '--workspace', 'w', 'agents', '--port=1', 'primary']);
    expect(opts).toEqual({ help: false, workspace: 'w', port: 1, positional: ['list', 'agents', 'primary'], sessionsDirs: [] });
  });

  it('lets the last occurrence of an option win', () => {
    expect(parseShellOptions(['--port', '1', '--port=2']).port).toBe(2);
  });

  it.each([['--verbose'], ['-x'], ['--no-sandbox'], ['--remote-debugging-port=9222']])('refuses the unknown option %s, naming it', (flag) => {
    const err = usageErrorOf(() => parseShellOptions(['--workspace', 'w', flag]));
    const name = flag.includes('=') ? flag.slice(0, flag.indexOf('=')) : flag;
    expect(err.message).toContain(`Unknown option ${name}`);
    expect(err.name).toBe('UsageError');
  });

  it('skips unknown switches (Chromium flags) in lenient mode and still parses the rest', () => {
    const opts = parseShellOptions(
      ['--no-sandbox', '--workspace', 'w', '--remote-debugging-port=9222', '--enable-logging', 'app', '--port=5'],
      true,
    );
    expect(opts).toEqual({ help: false, workspace: 'w', port: 5, positional: ['app'], sessionsDirs: [] });
  });

  it('still validates known options in lenient mode', () => {
    expect(usageErrorOf(() => parseShellOptions(['--port', 'abc'], true)).message).toContain('--port');
    expect(usageErrorOf(() => parseShellOptions(['--workspace'], true)).message).toContain('--workspace needs a value');
  });

  it.each([['65536'], ['-1'], ['1.5'], ['abc'], ['8080x'], ['0x50'], [' 80'], ['1e3'], ['99999999999999999999']])(
    'refuses --port %j as not an integer from 0 to 65535',
    (raw) => {
      const message = 'must be an integer from 0 to 65535';
      expect(usageErrorOf(() => parseShellOptions([`--port=${raw}`])).message).toContain(message);
      expect(usageErrorOf(() => parseShellOptions(['--port', raw])).message).toContain(message);
    },
  );

  it.each([
    [['--workspace'], '--workspace'],
    [['--workspace='], '--workspace'],
    [['--port'], '--port'],
    [['--port='], '--port'],
    [['list', '--port'], '--port'],
  ])('refuses %j: the flag is missing its value', (argv, flag) => {
    expect(usageErrorOf(() => parseShellOptions(argv)).message).toBe(`${flag} needs a value.`);
  });

  it('is a pure function of its input (the argv array is not modified)', () => {
    const argv = Object.freeze(['--workspace', 'w', 'x']);
    expect(parseShellOptions(argv)).toEqual(parseShellOptions(argv));
    expect(argv).toEqual(['--workspace', 'w', 'x']);
  });
});

describe('parseShellOptions: an option is never taken as the value of another', () => {
  it.each([
    [['--workspace', '--port', '80']],
    [['--port', '--help']],
    [['--workspace=']],
  ])('%j -> UsageError "needs a value"', (argv) => {
    expect(() => parseShellOptions(argv)).toThrow(/needs a value/);
  });
});
