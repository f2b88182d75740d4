import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MiddleEllipsis, tailOf } from '../../../../renderer/components/MiddleEllipsis';

describe('MiddleEllipsis', () => {
  afterEach(cleanup);

  it.each([
    ['worker-rotation', 'rotation'],
    ['reviewer-2', '2'],
    ['probe-callers', 'callers'],
    ['session:4f1c/agent-a1b2c3d4', 'a1b2c3d4'],
    ['primary', ''],
    ['averyveryverylongidwithoutseparators', 'rators'],
    ['x-averyveryverylongsegment', 'egment'],
    ['trailing-', ''],
  ])('keeps the end that tells %s from its siblings: "%s"', (name, tail) => {
    expect(tailOf(name)).toBe(tail);
  });

  it('holds the whole text, the tail apart so it stays in view when the head is cut', () => {
    const { container } = render(<MiddleEllipsis className="tree__id" text="worker-rotation" />);
    const root = container.firstElementChild as HTMLElement;
    expect(root.className).toBe('mid-ellipsis tree__id');
    expect(root.textContent).toBe('worker-rotation');
    expect(root.querySelector('.mid-ellipsis__head')?.textContent).toBe('worker-');
    expect(root.querySelector('.mid-ellipsis__tail')?.textContent).toBe('rotation');
  });

  it('has no tail for a short name', () => {
    const { container } = render(<MiddleEllipsis text="primary" />);
    expect(container.textContent).toBe('primary');
    expect(container.querySelector('.mid-ellipsis__tail')).toBeNull();
  });
});
