/**
 * Checks of what a member's browser does with a page, beyond what is on the screen: accessibility
 * (axe-core), Content-Security-Policy violations and the layout of tables on narrow screens.
 */
import { AxeBuilder } from '@axe-core/playwright';
import { expect, type Locator, type Page } from '@playwright/test';

/** Frames sandboxed without scripts: the email html the product shows as `srcdoc` (previews, report, click map). */
const SCRIPTLESS_FRAMES = 'iframe[sandbox]:not([sandbox~="allow-scripts"])';

/**
 * No axe-core violation on the page as it is now (WCAG 2.x A and AA rules). Fluent's focus
 * management puts hidden focusable sentinels (`data-tabster-dummy`) around toasters, dialogs and
 * menus: they hand focus on at once and are hidden from screen readers on purpose, a documented
 * false positive of the aria-hidden-focus rule, so they are left out.
 *
 * axe-core runs inside every frame, and in a frame sandboxed without scripts it never finishes (its
 * timers never fire there): such frames are left out, and the one rule about the frame element
 * itself, an accessible name (frame-title), is checked here instead. A test checks what such a
 * frame holds with expectNoAxeViolationsInFrameDocument. `exclude` leaves out more, by selector:
 * only for what is not the app's own markup and where axe cannot run.
 */
export async function expectNoAxeViolations(page: Page, where: string, { exclude = [] }: { exclude?: string[] } = {}): Promise<void> {
  await waitForPageToSettle(page, where);
  const unnamedFrames = await page
    .locator(SCRIPTLESS_FRAMES)
    .evaluateAll((frames) =>
      frames
        .filter((frame) => !(frame.getAttribute('title')?.trim() || frame.getAttribute('aria-label')?.trim()))
        .map((frame) => frame.outerHTML.slice(0, 120)),
    );
  expect(unnamedFrames, `frames without an accessible name on ${where}`).toEqual([]);
  let builder = new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .exclude('[data-tabster-dummy]')
    .exclude(SCRIPTLESS_FRAMES);
  for (const selector of exclude) builder = builder.exclude(selector);
  const results = await builder.analyze();
  const found = results.violations.map(
    (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(' | ')}`,
  );
  expect(found, `axe-core violations on ${where}`).toEqual([]);
}

/**
 * Waits until nothing on the page is still moving into place: every running animation and transition
 * that changes how something looks has finished. A check that reads colours or boxes half-way through
 * a fade reads what no member sees once it settles (axe measured the contrast of a toast's title while
 * it faded in, and failed one run in two). Left out, as they never settle or change nothing: animations
 * that repeat forever (spinners, indeterminate progress bars) and those whose keyframes are all alike
 * (Fluent's toast timer, an opacity 0 to 0 animation that only counts down the toast's time).
 */
export async function waitForPageToSettle(page: Page, where: string): Promise<void> {
  await expect
    .poll(
      () =>
        page.evaluate(() =>
          document
            .getAnimations()
            .filter((animation) => {
              if (animation.playState !== 'running' && !animation.pending) return false;
              const effect = animation.effect;
              if (!effect || effect.getComputedTiming().endTime === Infinity) return false;
              if (!(effect instanceof KeyframeEffect)) return true;
              const keyframes = effect.getKeyframes();
              const properties = new Set(keyframes.flatMap((frame) => Object.keys(frame)));
              for (const timing of ['offset', 'computedOffset', 'easing', 'composite']) properties.delete(timing);
              return [...properties].some((property) => new Set(keyframes.map((frame) => String(frame[property]))).size > 1);
            })
            .map((animation) => {
              const target = animation.effect instanceof KeyframeEffect ? animation.effect.target : null;
              const name =
                animation instanceof CSSAnimation
                  ? animation.animationName
                  : animation instanceof CSSTransition
                    ? animation.transitionProperty
                    : animation.id;
              return `${animation.constructor.name} ${name} on ${target ? target.outerHTML.slice(0, 80) : 'nothing'}`;
            }),
        ),
      { message: `animations still running on ${where}`, timeout: 10_000 },
    )
    .toEqual([]);
}

/**
 * No axe-core violation in the document a script-less sandboxed frame shows (its `srcdoc`), laid out
 * on a page of its own in the same browser, where axe can run.
 */
export async function expectNoAxeViolationsInFrameDocument(frame: Locator, where: string): Promise<void> {
  const html = await frame.getAttribute('srcdoc');
  expect(html, `the srcdoc of ${where}`).toBeTruthy();
  const page = await frame.page().context().newPage();
  try {
    await page.setContent(html!);
    await expectNoAxeViolations(page, where);
  } finally {
    await page.close();
  }
}

declare global {
  interface Window {
    reportCspViolation?: (violation: string) => void;
  }
}

/**
 * Collects, from now on, every Content-Security-Policy violation in the page and its frames: the
 * `securitypolicyviolation` events where a script can listen, and Chromium's console report for the
 * rest (a sandboxed frame without scripts). Call before the first navigation.
 */
export async function collectCspViolations(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeFunction('reportCspViolation', (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) =>
      window.reportCspViolation?.(
        `${event.effectiveDirective} refused ${event.blockedURI || '(inline)'} on ${event.documentURI} ${event.sourceFile}:${event.lineNumber} ${event.sample}`,
      ),
    );
  });
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) violations.push(`console on ${message.location().url}: ${message.text()}`);
  });
  return violations;
}

interface CellBoxes {
  row: number;
  cells: { text: string; cell: DOMRect; content: DOMRect }[];
}

/**
 * Where each cell of each row of `table` is, and where its content is drawn (which may run past the
 * cell: that is what overlapping cells look like). Rects are in page coordinates.
 */
async function cellBoxes(table: Locator): Promise<CellBoxes[]> {
  return table.evaluate((element) =>
    Array.from(element.querySelectorAll('tr')).map((row, index) => ({
      row: index,
      cells: Array.from(row.querySelectorAll('th, td')).map((cell) => {
        const range = document.createRange();
        range.selectNodeContents(cell);
        const content = range.getBoundingClientRect();
        const box = cell.getBoundingClientRect();
        const plain = (rect: DOMRect) =>
          ({
            x: rect.x,
            y: rect.y,
            width: rect.width,
            height: rect.height,
            top: rect.top,
            right: rect.right,
            bottom: rect.bottom,
            left: rect.left,
          }) as DOMRect;
        return { text: (cell.textContent ?? '').trim(), cell: plain(box), content: plain(content) };
      }),
    })),
  );
}

/** No cell's content runs out of its cell, so no two cells' contents overlap (one pixel of rounding allowed). */
export async function expectNoOverlappingCells(table: Locator): Promise<void> {
  const rows = await cellBoxes(table);
  expect(rows.length, 'rows in the table').toBeGreaterThan(1);
  const problems: string[] = [];
  for (const { row, cells } of rows) {
    cells.forEach(({ text, cell, content }, index) => {
      if (content.width === 0) return;
      if (content.left < cell.left - 1 || content.right > cell.right + 1) {
        problems.push(
          `row ${row}: "${text}" is drawn from ${content.left} to ${content.right}, its cell spans ${cell.left} to ${cell.right}`,
        );
      }
      const next = cells[index + 1];
      if (next && next.content.width > 0 && content.right > next.content.left + 1) {
        problems.push(`row ${row}: "${text}" (to ${content.right}) runs over "${next.text}" (from ${next.content.left})`);
      }
    });
  }
  expect(problems, 'overlapping cells').toEqual([]);
}

/**
 * Collects, from now on, what the Module Federation runtime logs in the page (its messages start with
 * '[ Federation Runtime ]'): a shared module whose version does not satisfy a remote's requirement,
 * a share scope problem. A page that loads cleanly logs none.
 */
export function collectFederationWarnings(page: Page): string[] {
  const warnings: string[] = [];
  page.on('console', (message) => {
    if (/Federation Runtime/i.test(message.text())) warnings.push(`${message.type()} on ${page.url()}: ${message.text()}`);
  });
  return warnings;
}
