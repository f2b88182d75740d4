import { describe, expect, it } from 'vitest';
import { manualClock } from '../../../../engine/ports/Clock';
import { manualScheduler } from '../../../../engine/ports/Scheduler';
import { systemScheduler } from '../../../../engine/ports/systemScheduler';

describe('manualScheduler', () => {
  it('advance fires each timer when it falls due, in time order, with the clock reading its time', () => {
    const clock = manualClock(1_000);
    const s = manualScheduler(clock);
    const fired: string[] = [];
    s.every(30, () => fired.push(`every@${clock.now()}`));
    s.after(50, () => fired.push(`after50@${clock.now()}`));
    s.after(0, () => fired.push(`after0@${clock.now()}`));
    s.advance(29);
    expect(fired).toEqual(['after0@1000']);
    expect(clock.now()).toBe(1_029);
    s.advance(71);
    expect(fired).toEqual(['after0@1000', 'every@1030', 'after50@1050', 'every@1060', 'every@1090']);
    expect(clock.now()).toBe(1_100);
    // The one-shot timers are gone, the repeating one stays.
    expect(s.active()).toBe(1);
  });

  it('a timer set by a firing timer fires within the same advance when it falls due there; a cancelled one never fires', () => {
    const s = manualScheduler();
    const fired: string[] = [];
    s.after(10, () => {
      fired.push('first');
      s.after(0, () => fired.push('at once'));
      s.after(5, () => fired.push('five later'));
      s.after(100, () => fired.push('too late'));
    });
    const cancel = s.after(12, () => fired.push('cancelled'));
    cancel();
    const stop = s.every(1, () => fired.push('stopped'));
    stop();
    s.advance(20);
    expect(fired).toEqual(['first', 'at once', 'five later']);
    expect(s.active()).toBe(1);
  });

  it('tick fires the repeating timers whatever their period and leaves the one-shot ones waiting', () => {
    const s = manualScheduler();
    let repeats = 0;
    let once = 0;
    s.every(5_000, () => repeats++);
    s.after(0, () => once++);
    s.tick(3);
    expect([repeats, once]).toEqual([3, 0]);
    s.advance(0);
    expect(once).toBe(1);
  });

  it('refuses to spin for ever on timers that keep setting each other at the same time', () => {
    const s = manualScheduler();
    const again = () => s.after(0, again);
    again();
    expect(() => s.advance(1)).toThrow(/keep setting each other/);
  });
});

describe('systemScheduler', () => {
  it('after(0) runs on a later turn of the event loop, not before the code that set it ends; a cancelled timer never runs', async () => {
    const ran: string[] = [];
    const cancelled = systemScheduler.after(0, () => ran.push('cancelled'));
    const soon = new Promise<void>((resolve) => systemScheduler.after(0, () => resolve(void ran.push('soon'))));
    const later = new Promise<void>((resolve) => systemScheduler.after(5, () => resolve(void ran.push('later'))));
    cancelled();
    expect(ran).toEqual([]);
    await Promise.all([soon, later]);
    expect(ran.sort()).toEqual(['later', 'soon']);
  });

  it('every repeats until stopped', async () => {
    let n = 0;
    await new Promise<void>((resolve) => {
      const stop = systemScheduler.every(1, () => {
        if (++n === 3) {
          stop();
          resolve();
        }
      });
    });
    const at = n;
    await new Promise<void>((resolve) => systemScheduler.after(10, resolve));
    expect(n).toBe(at);
  });
});
