/**
 * The distinguishing end of a name: its last `-`, `_`, `:`, `/` or `.` segment when that is short
 * (`worker-rotation` → `rotation`, `reviewer-2` → `2`), else its last six characters. Agent ids
 * share their starts (`worker-…`, `probe-…`), so the end is what tells two apart.
 */
export function tailOf(name: string): string {
  const cut = Math.max(name.lastIndexOf('-'), name.lastIndexOf('_'), name.lastIndexOf(':'), name.lastIndexOf('/'), name.lastIndexOf('.'));
  const segment = cut >= 0 ? name.slice(cut + 1) : '';
  if (segment.length > 0 && segment.length <= 10 && segment.length < name.length) return segment;
  return name.length > 12 ? name.slice(-6) : '';
}

/**
 * A name that, when its cell is too narrow, loses characters from its middle and keeps its end
 * (`wor…rotation`), not its end (`worker-rot…`). The text is whole in the DOM (copy, find and
 * screen readers get all of it); only the head's overflow is hidden. It is a flex row: its
 * container gives it `min-width: 0` (a grid or flex item) so it can shrink.
 */
export function MiddleEllipsis({ text, className }: { text: string; className?: string }) {
  const tail = tailOf(text);
  return (
    <span className={className ? `mid-ellipsis ${className}` : 'mid-ellipsis'}>
      <span className="mid-ellipsis__head">{text.slice(0, text.length - tail.length)}</span>
      {tail !== '' && <span className="mid-ellipsis__tail">{tail}</span>}
    </span>
  );
}
