import { expect, test, type Page } from '@playwright/test';
import { screenshots } from './screenshots';
import { openPausedDemo, startWebHostProcess, type RunningWebHost } from './webHostProcess';

/**
 * Everyone's journeys (issue 22 items 17 and 19): panes that resize, collapse and stay so after a
 * reload, a quiet log strip that leads to its agent, compactions hidden in one click, and the
 * desktop menu's shortcuts (plus a "?" list) in the web control room.
 */
let web: RunningWebHost;

test.beforeAll(async () => {
  web = await startWebHostProcess();
});
test.afterAll(async () => {
  await web?.stop();
});


async function openLive(page: Page): Promise<void> {
  await page.goto(web.url);
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.getByRole('tree').getByRole('treeitem')).toHaveCount(8, { timeout: 20_000 });
}

const railWidth = async (page: Page) => (await page.locator('#rail').boundingBox())?.width ?? 0;

interface Box {
  left: number;
  right: number;
}
interface TreeLayout {
  tree: Box;
  head: { hit: Box; cells: Box[] };
  rows: { agentId: string; hit: Box; hitClipped: boolean; cells: Box[] }[];
}

/** Where the tree, its column headers and each shown row's cells lie (cells hidden by the layout left out). */
const treeLayout = (page: Page): Promise<TreeLayout> =>
  page.evaluate(() => {
    const box = (el: Element): Box => {
      const r = el.getBoundingClientRect();
      return { left: r.left, right: r.right };
    };
    const shown = (els: ArrayLike<Element>) => Array.from(els).filter((el) => getComputedStyle(el).display !== 'none').map(box);
    const head = document.querySelector('.tree__head') as HTMLElement;
    return {
      tree: box(document.querySelector('.tree') as Element),
      head: { hit: box(head.querySelector('.tree__col--hit') as Element), cells: shown(head.children) },
      rows: Array.from(document.querySelectorAll<HTMLElement>('.tree [role="treeitem"]')).map((li) => {
        const hit = li.querySelector('.tree__hit') as HTMLElement;
        return { agentId: li.dataset.agentId ?? '', hit: box(hit), hitClipped: hit.scrollWidth > hit.clientWidth, cells: shown(li.querySelector('.tree__line')?.children ?? []) };
      }),
    };
  });

/** Every column of the tree, its header and its last ("hit %") cell included, lies inside the tree, and the last cells sit under their header. */
async function expectColumnsInside(page: Page): Promise<void> {
  const { tree, head, rows } = await treeLayout(page);
  const inside = (b: Box) => b.left >= tree.left - 0.5 && b.right <= tree.right + 0.5;
  expect(rows.length).toBeGreaterThan(0);
  for (const [i, cell] of head.cells.entries()) expect(inside(cell), `header ${i} ${JSON.stringify(cell)} in the tree ${JSON.stringify(tree)}`).toBe(true);
  for (const r of rows) {
    expect(inside(r.hit), `${r.agentId}'s hit % cell ${JSON.stringify(r.hit)} in the tree ${JSON.stringify(tree)}`).toBe(true);
    expect(r.hitClipped, `${r.agentId}'s hit % figure clipped`).toBe(false);
    expect(Math.abs(r.hit.right - head.hit.right), `${r.agentId}'s hit % under its header`).toBeLessThanOrEqual(1);
    for (const [i, cell] of r.cells.entries()) expect(inside(cell), `${r.agentId}'s column ${i} ${JSON.stringify(cell)} in the tree`).toBe(true);
  }
}

test('the rail and the log strip resize and collapse, and stay so after a reload; a log line opens its agent; compactions hide in one click', async ({ page }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.setViewportSize({ width: 1024, height: 800 });
  await openLive(page);
  // At 1024 px the rail no longer takes 460 px.
  expect(await railWidth(page)).toBeLessThan(430);

  // Drag the rail's separator 80 px right.
  const sep = page.getByRole('separator', { name: 'Resize the agent rail' });
  const box = (await sep.boundingBox())!;
  const before = await railWidth(page);
  await page.mouse.move(box.x + box.width / 2, box.y + 200);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2 + 40, box.y + 200, { steps: 4 });
  await page.mouse.move(box.x + box.width / 2 + 80, box.y + 200, { steps: 4 });
  await page.mouse.up();
  await expect.poll(() => railWidth(page)).toBeGreaterThan(before + 70);
  const dragged = await railWidth(page);
  // And by keys: two steps left.
  await sep.focus();
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => railWidth(page)).toBeLessThan(dragged - 25);
  const sized = Math.round(await railWidth(page));

  // The log strip collapses to one line; only its summary is a live region.
  const strip = page.getByRole('contentinfo', { name: 'Event log' });
  await expect(strip.locator('[aria-live]')).toHaveCount(1);
  await expect(strip.locator('.log [aria-live], .log[aria-live]')).toHaveCount(0);
  await strip.getByRole('button', { name: /Log/ }).click();
  await expect(strip.getByRole('list')).toHaveCount(0);
  await expect(strip.locator('.strip__latest')).toBeVisible();
  await screenshots(page, 'strip-collapsed');

  // A reload keeps the rail's width and the collapsed strip.
  await openLive(page);
  expect(Math.abs(Math.round(await railWidth(page)) - sized)).toBeLessThanOrEqual(1);
  await expect(strip.getByRole('button', { name: /Log/ })).toHaveAttribute('aria-expanded', 'false');
  await strip.getByRole('button', { name: /Log/ }).click();
  await expect(strip.getByRole('list')).toBeVisible();

  // The rail collapses from the top bar, the main area takes the room, and a reload keeps it so.
  await page.getByRole('button', { name: 'Agents' }).click();
  await expect(page.locator('#rail')).toBeHidden();
  await screenshots(page, 'rail-collapsed');
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(page.locator('#rail')).toBeHidden();
  await page.getByRole('button', { name: 'Agents' }).click();
  await expect(page.getByRole('tree').getByRole('treeitem')).toHaveCount(8, { timeout: 20_000 });

  // A log line leads to its agent (and the generation it names).
  const open = strip.getByRole('button', { name: /^Open worker-/ }).last();
  await expect(open).toBeVisible({ timeout: 20_000 });
  const agentId = /^Open (\S+)/.exec((await open.getAttribute('aria-label')) ?? '')?.[1] ?? '';
  await page.getByRole('tab', { name: 'Events' }).click();
  await open.click();
  await expect(page.getByRole('tab', { name: 'Agent' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('region', { name: `Agent ${agentId}` })).toBeVisible();
  await expect(page.getByRole('tree').locator(`[data-agent-id="${agentId}"]`)).toHaveAttribute('aria-selected', 'true');

  // Compactions hidden in one click, in the Events view and the strip; remembered.
  await page.getByRole('tab', { name: 'Events' }).click();
  const hide = page.locator('.events').getByRole('button', { name: /^hide compactions/ });
  await hide.click();
  await expect(hide).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.events__row[data-kind="compaction"]')).toHaveCount(0);
  await expect(strip.getByRole('button', { name: 'hide compactions' })).toHaveAttribute('aria-pressed', 'true');
  await screenshots(page, 'events-hidden-compactions');
  await page.reload();
  await expect(page.locator('[data-connection="open"]')).toBeVisible();
  await expect(strip.getByRole('button', { name: 'hide compactions' })).toHaveAttribute('aria-pressed', 'true');
  expect(problems).toEqual([]);
});

test('at 1024 px every tree column fits inside the rail with its header, at the rail\'s default width and at its minimum', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 800 });
  await openLive(page);
  await expectColumnsInside(page);
  await screenshots(page, 'tree-columns', { parts: [{ part: 'rail', target: page.locator('#rail') }] });

  // The rail at its minimum width (Home on its separator), the narrowest the tree gets.
  const sep = page.getByRole('separator', { name: 'Resize the agent rail' });
  const min = Number(await sep.getAttribute('aria-valuemin'));
  expect(min).toBeGreaterThan(0);
  await sep.focus();
  await page.keyboard.press('Home');
  await expect.poll(() => railWidth(page)).toBeLessThanOrEqual(min + 1);
  await expectColumnsInside(page);
  await expectIdEndsShown(page);
  await screenshots(page, 'tree-columns-min-rail');
});

/**
 * Every row's agent id keeps its end in view: a cut id loses its middle (`wor…rotation`), so the part
 * that tells `worker-rotation` from `worker-session` is still read. At the rail's minimum, some are cut.
 */
async function expectIdEndsShown(page: Page): Promise<void> {
  const ids = await page.getByRole('tree').locator('[role="treeitem"]').evaluateAll((rows) =>
    rows.map((row) => {
      const id = row.querySelector('.mid-ellipsis') as HTMLElement;
      const head = id.querySelector('.mid-ellipsis__head') as HTMLElement;
      const tail = id.querySelector('.mid-ellipsis__tail') as HTMLElement | null;
      const box = id.getBoundingClientRect();
      const t = tail?.getBoundingClientRect();
      return {
        agentId: row.getAttribute('data-agent-id') ?? '',
        text: id.textContent ?? '',
        cut: head.scrollWidth > head.clientWidth + 0.5,
        tail: tail?.textContent ?? '',
        tailInside: t ? t.left >= box.left - 0.5 && t.right <= box.right + 0.5 && t.width > 0 : true,
      };
    }),
  );
  expect(ids.length).toBeGreaterThan(1);
  for (const id of ids) {
    expect(id.text, 'the whole id is in the row').toBe(id.agentId);
    expect(id.tailInside, `${id.agentId}'s end "${id.tail}" in view`).toBe(true);
  }
  expect(ids.filter((i) => i.cut && i.tail !== '').length, `some ids are cut at the rail's minimum: ${JSON.stringify(ids)}`).toBeGreaterThan(0);
}

test('an Events view row opens its agent at the generation it names, by click and by Enter', async ({ page }) => {
  const paused = await openPausedDemo(page, 3, { width: 1280, height: 860 });
  try {
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    const inspected = page.getByRole('region', { name: 'Context inspector' }).locator('.inspector__summary');
    // A refresh gives the primary a generation 2, so its turns so far are of a past generation.
    await page.getByRole('region', { name: 'Agent primary' }).getByRole('button', { name: /^Refresh/ }).click();
    await expect(inspected).toHaveAttribute('data-generation', '2');
    const tree = page.getByRole('tree');
    const other = tree.getByRole('treeitem').nth(1);
    const otherId = (await other.getAttribute('data-agent-id')) ?? '';
    expect(otherId).not.toBe('primary');
    await other.locator('.tree__select').click();
    await expect(page.getByRole('region', { name: `Agent ${otherId}` })).toBeVisible();

    // Enter on a turn's agent: the primary, at the generation the turn ran in, shown as past.
    await page.getByRole('tab', { name: 'Events' }).click();
    const events = page.getByRole('region', { name: 'Events' });
    const turn = events.getByRole('button', { name: 'Open primary at generation 1' }).first();
    await expect(turn).toBeVisible();
    await screenshots(page, 'events-agent-links');
    await turn.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('tab', { name: 'Agent' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('region', { name: 'Agent primary' })).toBeVisible();
    await expect(tree.locator('[data-agent-id="primary"]')).toHaveAttribute('aria-selected', 'true');
    await expect(inspected).toHaveAttribute('data-generation', '1');
    await expect(page.getByRole('region', { name: 'Past generation' })).toContainText('You are viewing generation 1 of primary');

    // A click on the refresh's agent: the generation it began, the current one.
    await page.getByRole('tab', { name: 'Events' }).click();
    await events.getByRole('button', { name: 'Open primary at generation 2' }).first().click();
    await expect(page.getByRole('tab', { name: 'Agent' })).toHaveAttribute('aria-selected', 'true');
    await expect(inspected).toHaveAttribute('data-generation', '2');
    await expect(page.getByRole('region', { name: 'Past generation' })).toHaveCount(0);

    // A row of the agent that names no generation (a spawn) opens the agent as it is now.
    await other.locator('.tree__select').click();
    await expect(page.getByRole('region', { name: `Agent ${otherId}` })).toBeVisible();
    await page.getByRole('tab', { name: 'Events' }).click();
    await events.getByRole('button', { name: 'Open primary', exact: true }).first().click();
    await expect(page.getByRole('region', { name: 'Agent primary' })).toBeVisible();
    await expect(tree.locator('[data-agent-id="primary"]')).toHaveAttribute('aria-selected', 'true');
    await expect(inspected).toHaveAttribute('data-generation', '2');
    expect(problems).toEqual([]);
  } finally {
    await paused.stop();
  }
});

test('the desktop menu shortcuts work in the web control room, "?" lists them, and text fields keep their keys', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  await openLive(page);
  const selected = (name: string) => expect(page.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');

  await page.locator('body').press('2');
  await selected('Charts');
  await page.keyboard.press('Control+6');
  await selected('Events');
  await page.keyboard.press('Control+Shift+C');
  await selected('Compare');
  await page.keyboard.press('Control+Shift+Backspace');
  await selected('Memory');
  await expect(page.getByRole('dialog', { name: /Purge project memory/ })).toBeVisible();
  // Keys belong to the open confirmation: a digit types into its field, the view stays.
  await page.keyboard.press('1');
  await selected('Memory');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);

  // Typing in a field never switches views.
  await page.getByLabel('Filter agents').fill('');
  await page.getByLabel('Filter agents').press('3');
  await expect(page.getByLabel('Filter agents')).toHaveValue('3');
  await selected('Memory');
  await page.getByLabel('Filter agents').fill('');

  // [ and ] collapse the rail and the strip.
  await page.getByRole('tab', { name: 'Memory' }).focus();
  await page.keyboard.press('[');
  await expect(page.locator('#rail')).toBeHidden();
  await page.keyboard.press('[');
  await expect(page.locator('#rail')).toBeVisible();
  await page.keyboard.press(']');
  await expect(page.getByRole('contentinfo', { name: 'Event log' }).getByRole('button', { name: /Log/ })).toHaveAttribute('aria-expanded', 'false');
  await page.keyboard.press(']');

  // "?" lists the shortcuts; Escape closes the list.
  await page.keyboard.press('1');
  await selected('Agent');
  await page.keyboard.press('Shift+Slash');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('Ctrl+Shift+C');
  await expect(dialog).toContainText('Show the Events view');
  await screenshots(page, 'shortcuts-dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});
