import { useRef, type KeyboardEvent, type PointerEvent, type RefObject } from 'react';

/** Pixels an arrow key moves the separator (Shift: five times as far). */
const KEY_STEP_PX = 16;

export interface PaneResizerProps {
  /** 'vertical' sits between two columns and sets a width; 'horizontal' sits between two rows and sets a height. */
  orientation: 'vertical' | 'horizontal';
  /** What the separator resizes, as a screen reader names it ("Resize the agent rail"). */
  label: string;
  /** The id of the pane it resizes (aria-controls). */
  controls: string;
  /** The pane whose size is set: its rendered size is where a drag or a key starts. */
  pane: RefObject<HTMLElement | null>;
  /** +1 when moving the separator right (or down) grows the pane, -1 when it shrinks it (a pane below). */
  grow: 1 | -1;
  /** The size's bounds for this window (the caller clamps too). */
  min: number;
  max: number;
  /** The size set, or null while the pane takes its default size. */
  value: number | null;
  collapsed: boolean;
  onResize(px: number): void;
  /** Collapse or expand the pane (Enter on the separator, or a double click). */
  onToggle(): void;
}

/**
 * A WAI-ARIA window splitter: drag it with the pointer, or focus it and use the arrow keys (Shift
 * for bigger steps), Home and End for the bounds, Enter to collapse or expand the pane.
 */
export function PaneResizer({ orientation, label, controls, pane, grow, min, max, value, collapsed, onResize, onToggle }: PaneResizerProps) {
  const drag = useRef<{ start: number; size: number } | null>(null);
  const vertical = orientation === 'vertical';
  const current = () => {
    const r = pane.current?.getBoundingClientRect();
    return r ? (vertical ? r.width : r.height) : min;
  };
  const fit = (px: number) => Math.round(Math.min(max, Math.max(min, px)));

  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    if (e.button !== 0 || collapsed) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drag.current = { start: vertical ? e.clientX : e.clientY, size: current() };
  };
  const onPointerMove = (e: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    onResize(fit(d.size + grow * ((vertical ? e.clientX : e.clientY) - d.start)));
  };
  const end = (e: PointerEvent<HTMLDivElement>) => {
    if (!drag.current) return;
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      onToggle();
      return;
    }
    if (collapsed) return;
    const step = (e.shiftKey ? 5 : 1) * KEY_STEP_PX;
    const moves: Record<string, number> = vertical ? { ArrowRight: step, ArrowLeft: -step } : { ArrowDown: step, ArrowUp: -step };
    const move = moves[e.key];
    if (move !== undefined) {
      e.preventDefault();
      onResize(fit(current() + grow * move));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      onResize(e.key === 'Home' ? min : max);
    }
  };

  return (
    <div
      className={`resizer resizer--${orientation}${collapsed ? ' resizer--collapsed' : ''}`}
      role="separator"
      aria-orientation={vertical ? 'vertical' : 'horizontal'}
      aria-label={label}
      aria-controls={controls}
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={collapsed ? min : (value ?? undefined)}
      tabIndex={0}
      title={`${label}: drag, or arrow keys; Enter or a double click ${collapsed ? 'expands' : 'collapses'} it`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={end}
      onPointerCancel={end}
      onDoubleClick={onToggle}
      onKeyDown={onKeyDown}
    />
  );
}
