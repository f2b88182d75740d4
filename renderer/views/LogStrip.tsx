import type { CSSProperties } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { useDispatch, useStrata } from '../controller/StoreContext';
import { timeOfDay } from '../components/format';
import { logTarget, selectLogSummary, selectStripLog } from '../store/log/logSelectors';
import { type OpenLogTarget, useOpenLogTarget } from './useOpenLogTarget';
import { LogTargetButton } from './LogTargetButton';

/** Lines shown while the strip has its default height. */
const DEFAULT_LINES = 6;
/** One line's height and the bar's, in CSS pixels: a taller strip shows more lines. */
const LINE_PX = 18;
const BAR_PX = 26;
/**
 * The expanded strip's height until the user sizes it: the 11.2rem it used to grow to as its
 * lines arrived (six lines, some wrapped). It now has that height from the start, so nothing in it
 * or above it moves under the pointer while the log fills.
 */
export const STRIP_DEFAULT_PX = 179;

/**
 * The newest workspace events at the bottom, collapsible to one line and resizable (the shell's
 * separator). Only the summary of errors and warnings is a live region: a screen reader hears
 * when one arrives, not every line. A line of an agent opens that agent at the generation it names.
 */
export function LogStrip() {
  const dispatch = useDispatch();
  const open = useOpenLogTarget();
  const { stripCollapsed: collapsed, stripHeight } = useStrata(useShallow((s) => ({ stripCollapsed: s.ui.layout.stripCollapsed, stripHeight: s.ui.layout.stripHeight })));
  const lines = collapsed ? 1 : stripHeight === null ? DEFAULT_LINES : Math.max(1, Math.floor((stripHeight - BAR_PX) / LINE_PX));
  const entries = useStrata(useShallow((s) => selectStripLog(s, lines)));
  const summary = useStrata(selectLogSummary);
  const compactionsHidden = useStrata((s) => s.ui.hiddenKinds.includes('compaction'));
  const hiddenKinds = useStrata((s) => s.ui.hiddenKinds);
  const style: CSSProperties | undefined = collapsed ? undefined : { height: stripHeight ?? STRIP_DEFAULT_PX, maxHeight: 'none' };

  const toggleCompactions = () => dispatch({ type: 'events.hideKinds', kinds: compactionsHidden ? hiddenKinds.filter((k) => k !== 'compaction') : [...hiddenKinds, 'compaction'] });
  const latest = collapsed ? entries.at(-1) : undefined;

  return (
    <footer className={`strip${collapsed ? ' strip--collapsed' : ''}`} id="log-strip" aria-label="Event log" style={style}>
      <div className="strip__bar">
        <button type="button" className="strip__toggle" aria-expanded={!collapsed} aria-controls="log-strip" onClick={() => dispatch({ type: 'layout.set', layout: { stripCollapsed: !collapsed } })} title={`${collapsed ? 'Show' : 'Collapse'} the log (])`}>
          <span aria-hidden="true">{collapsed ? '▸' : '▾'}</span> Log
        </button>
        <span className="strip__summary" role="status" aria-live="polite">
          {summary}
        </span>
        {latest && <LogLine e={latest} open={open} className="strip__latest" />}
        <button type="button" className="strip__hide" aria-pressed={compactionsHidden} onClick={toggleCompactions} title="Compactions are a third of all events: leave them out of the log strip and the Events view">
          hide compactions
        </button>
      </div>
      {!collapsed && (
        <ol className="log">
          {entries.map((e) => (
            <li key={e.seq} className={`log__line log__line--${e.level}`}>
              <LogLineBody e={e} open={open} />
            </li>
          ))}
        </ol>
      )}
    </footer>
  );
}

type Entry = ReturnType<typeof selectStripLog>[number];

function LogLine({ e, open, className }: { e: Entry; open: OpenLogTarget; className: string }) {
  return (
    <span className={`${className} log__line--${e.level}`}>
      <LogLineBody e={e} open={open} />
    </span>
  );
}

function LogLineBody({ e, open }: { e: Entry; open: OpenLogTarget }) {
  const target = logTarget(e);
  return (
    <>
      <time>{timeOfDay(e.at)}</time> {target && <LogTargetButton target={target} open={open} />} {e.message}
    </>
  );
}
