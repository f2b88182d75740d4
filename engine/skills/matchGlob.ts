/**
 * Compile a path glob to an anchored RegExp, or say why it is not a glob. Globs match the whole
 * workspace-relative path with `/` separators: `*` and `?` stay within one segment, `**` as a whole
 * segment spans any number of them (`**` + `/*.py` matches `a.py` and `a/b/c.py`), `{ts,tsx}` is
 * an alternative, `[abc]` / `[!abc]` a character class and `\` escapes. A glob without `/` is not
 * matched against the base name only (write `**` + `/` before it for any depth), matching is
 * case-sensitive, and `*` also matches names that start with a dot.
 */
export function compileGlob(glob: string): RegExp | { error: string } {
  const g = glob.replace(/^\.?\//, '');
  let re = '';
  let braces = 0;
  for (let i = 0; i < g.length; i++) {
    const c = g.charAt(i);
    if (c === '*' && g[i + 1] === '*' && (i === 0 || g[i - 1] === '/') && (i + 2 === g.length || g[i + 2] === '/')) {
      const last = i + 2 === g.length;
      re += last ? '.*' : '(?:.*/)?';
      i += last ? 1 : 2;
    } else if (c === '*') {
      while (g[i + 1] === '*') i++;
      re += '[^/]*';
    } else if (c === '?') {
      re += '[^/]';
    } else if (c === '[') {
      const close = g.indexOf(']', i + 2);
      if (close < 0) return { error: `'${glob}' has a [ without a closing ]` };
      const body = g.slice(i + 1, close).replace(/^[!^]/, '^').replace(/\\/g, '\\\\');
      re += `[${body}]`;
      i = close;
    } else if (c === '{') {
      braces++;
      re += '(?:';
    } else if (c === ',' && braces > 0) {
      re += '|';
    } else if (c === '}' && braces > 0) {
      braces--;
      re += ')';
    } else if (c === '\\' && i + 1 < g.length) {
      re += escape(g.charAt(++i));
    } else {
      re += escape(c);
    }
  }
  if (braces > 0) return { error: `'${glob}' has a { without a closing }` };
  try {
    return new RegExp(`^${re}$`);
  } catch {
    return { error: `'${glob}' is not a valid glob` };
  }
}

/** True when the workspace-relative `path` (either slash direction, optional `./`) matches. */
export function matchGlob(path: string, glob: RegExp): boolean {
  return glob.test(path.replace(/\\/g, '/').replace(/^\.\//, ''));
}

function escape(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c;
}
