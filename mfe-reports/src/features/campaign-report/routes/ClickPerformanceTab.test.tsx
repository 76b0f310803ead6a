import { screen, waitFor, within } from '@testing-library/react';
import type { AbTest } from '@mailroom/api-client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { campaign, createFakeApi, link } from '../../../test/fake-api';
import { renderApp } from '../../../test/render';
import { CLICK_MAP_IDS } from '../components/click-performance/clickMapDocument';

afterEach(() => vi.unstubAllGlobals());

const html = `<!DOCTYPE html><html><head><title>Spring</title></head><body>
<p><a href="https://example.org/news" data-link-id="1">Read the news</a></p>
<p><a href="https://example.org/shop" data-link-id="2">Visit the shop</a></p>
<p><a href="https://example.org/shop" data-link-id="2">Shop again</a></p>
<p><a href="https://example.org/events" data-link-id="3">Events</a></p>
</body></html>`;

const LONG_URL = 'https://example.org/events-with-a-very-long-address';
// Total and unique clicks, then people's among them (link scanners and bots make the rest).
const links = [
  link(1, 'https://example.org/news', 30, 12, 18, 10),
  link(2, 'https://example.org/shop', 15, 6, 3, 1),
  link(3, LONG_URL, 5, 2, 0, 0),
];

function setup(overrides: { links?: ReturnType<typeof link>[]; html?: string | null } = {}) {
  const api = createFakeApi({
    campaigns: [campaign({ id: 5, name: 'Spring news', html: overrides.html === undefined ? html : overrides.html })],
    stats: { 5: { jobsSent: 11, jobsFailed: 1, totalContactsCount: 12 } },
    links: { 5: overrides.links ?? links },
  });
  return { api, ...renderApp('/campaigns/reports/5?tab=click-performance', api) };
}

/** The click map frame's document, parsed as the frame would (nothing in it runs in the test either). */
async function openClickMap(user: ReturnType<typeof setup>['user']) {
  const button = await screen.findByRole('button', { name: 'View Click Map' });
  await waitFor(() => expect((button as HTMLButtonElement).disabled).toBe(false));
  await user.click(button);
  // hidden, and the title read as text: in jsdom tabster's modal bookkeeping may leave the surface itself
  // aria-hidden (its name then computes empty), which no browser does; the e2e walk checks it with axe.
  const dialog = await screen.findByRole('dialog', { hidden: true });
  expect(within(dialog).getByText('Click Map')).toBeTruthy();
  const frame = within(dialog).getByTitle('Click map') as HTMLIFrameElement;
  const doc = new DOMParser().parseFromString(frame.getAttribute('srcdoc')!, 'text/html');
  return { dialog, frame, doc };
}

describe('Click performance: links in this email', () => {
  it('lists each URL with its total and unique clicks and their shares, and under each how many people made', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Links in this email' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['URL', 'Total Clicks', 'Unique Clicks']);
    const body = within(table).getAllByRole('row').slice(1);
    expect(
      body.map((tr) =>
        within(tr)
          .getAllByRole('cell')
          .map((cell) => cell.textContent),
      ),
    ).toEqual([
      ['https://example.org/news', '30 (60.0%)18 by people', '12 (60.0%)10 by people'],
      ['https://example.org/shop', '15 (30.0%)3 by people', '6 (30.0%)1 by people'],
      // The whole URL: the column's width cuts it, with an ellipsis drawn by CSS, not a cut at 30 characters.
      [LONG_URL, '5 (10.0%)0 by people', '2 (10.0%)0 by people'],
    ]);
  });

  it('shows the whole URL in a tooltip when its link is pointed at or focused', async () => {
    const { user } = setup({ links });
    const table = await screen.findByRole('table', { name: 'Links in this email' });
    const url = within(table).getByText(LONG_URL);
    expect(url.tabIndex).toBe(0);
    await user.hover(url);
    expect((await screen.findByRole('tooltip')).textContent).toBe(LONG_URL);
  });

  it('shows 0.0% shares before any click', async () => {
    setup({ links: [link(1, 'https://example.org/news', 0, 0)] });
    const table = await screen.findByRole('table', { name: 'Links in this email' });
    expect(within(table).getAllByText('0 (0.0%)')).toHaveLength(2);
    expect(within(table).getAllByText('0 by people')).toHaveLength(2);
  });

  it("reads 'No data available' when the email has no links", async () => {
    setup({ links: [] });
    const table = await screen.findByRole('table', { name: 'Links in this email' });
    expect(within(table).getByText('No data available')).toBeTruthy();
  });

  it('offers no click map without html', async () => {
    setup({ html: null });
    await screen.findByRole('table', { name: 'Links in this email' });
    expect((screen.getByRole('button', { name: 'View Click Map' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Click performance: click map', () => {
  it('opens a full-screen overlay whose frame has an empty sandbox', async () => {
    const { user } = setup();
    const { frame, dialog } = await openClickMap(user);
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.hasAttribute('src')).toBe(false);
    await user.click(await within(dialog).findByRole('button', { name: 'Close', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog', { hidden: true })).toBeNull());
  });

  it('puts the clicks and their share on every link with a data-link-id, and points it at its details', async () => {
    const { user } = setup();
    const { doc } = await openClickMap(user);
    const anchors = [...doc.querySelectorAll('body a[data-link-id]')];
    expect(anchors.map((a) => [a.getAttribute('href'), a.querySelector('.mailroom-clickmap-badge')?.textContent])).toEqual([
      ['about:srcdoc#mailroom-clickmap-link-1', '30 clicks · 60.0%'],
      ['about:srcdoc#mailroom-clickmap-link-2', '15 clicks · 30.0%'],
      ['about:srcdoc#mailroom-clickmap-link-2', '15 clicks · 30.0%'],
      ['about:srcdoc#mailroom-clickmap-link-3', '5 clicks · 10.0%'],
    ]);
    // Fragments of the frame's own document, never resolved against the app's address.
    expect(doc.querySelectorAll('base')).toHaveLength(0);
  });

  it('has Link Details for each link: URL, Total Clicks, Unique Clicks and their shares', async () => {
    const { user } = setup();
    const { doc } = await openClickMap(user);
    const details = doc.getElementById(CLICK_MAP_IDS.details(2))!;
    expect(details.querySelector('h2')?.textContent).toBe('Link Details');
    const terms = [...details.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(terms).toEqual([
      ['URL', 'https://example.org/shop'],
      ['Total Clicks', '15'],
      ['% of all clicks', '30.0%'],
      ['Unique Clicks', '6'],
      ['% of all unique clicks', '30.0%'],
    ]);
    expect(details.querySelector(`a[href="about:srcdoc#${CLICK_MAP_IDS.summary}"]`)?.textContent).toBe('Back to Click Summary');
  });

  it("shows the 'Click Summary' with a bar per link as long as its share, while nothing is selected", async () => {
    const { user } = setup();
    const { doc } = await openClickMap(user);
    const summary = doc.getElementById(CLICK_MAP_IDS.summary)!;
    expect(summary.querySelector('h2')?.textContent).toBe('Click Summary');
    const items = [...summary.querySelectorAll('li')];
    expect(
      items.map((li) => [
        li.getAttribute('data-link-id'),
        li.querySelector('a')?.getAttribute('href'),
        li.querySelector<HTMLElement>('.mailroom-clickmap-bar > span')?.style.width,
        li.textContent,
      ]),
    ).toEqual([
      ['1', 'about:srcdoc#mailroom-clickmap-link-1', '60%', 'https://example.org/news30 clicks (60.0%)'],
      ['2', 'about:srcdoc#mailroom-clickmap-link-2', '30%', 'https://example.org/shop15 clicks (30.0%)'],
      ['3', 'about:srcdoc#mailroom-clickmap-link-3', '10%', `${LONG_URL}5 clicks (10.0%)`],
    ]);
    // Selection is the fragment: details show for :target, the summary while none is targeted, hovering highlights.
    const css = doc.querySelector('style')!.textContent!;
    expect(css).toContain('#mailroom-clickmap-panel .mailroom-clickmap-details { display: none; }');
    expect(css).toContain('#mailroom-clickmap-panel .mailroom-clickmap-details:target { display: block; }');
    expect(css).toContain('#mailroom-clickmap-panel:has(.mailroom-clickmap-details:target) #mailroom-clickmap-summary { display: none; }');
    expect(css).toMatch(/a\.mailroom-clickmap-link:hover, a\.mailroom-clickmap-link:focus-visible \{ outline: 3px solid/);
    expect(css).toContain('html:has(#mailroom-clickmap-link-2:target) a.mailroom-clickmap-link[data-link-id="2"]');
  });

  it("'People only' draws the map from people's clicks, machines' left out, and back", async () => {
    const { user } = setup();
    const { dialog } = await openClickMap(user);
    const frameDoc = () => new DOMParser().parseFromString(within(dialog).getByTitle('Click map').getAttribute('srcdoc')!, 'text/html');
    const badges = () => [...frameDoc().querySelectorAll('body a[data-link-id] .mailroom-clickmap-badge')].map((b) => b.textContent);
    expect(badges()).toEqual(['30 clicks · 60.0%', '15 clicks · 30.0%', '15 clicks · 30.0%', '5 clicks · 10.0%']);

    const toggle = await within(dialog).findByLabelText('People only');
    await user.click(toggle);
    expect(within(dialog).getByText(/people's clicks only, link scanners' and bots' left out/)).toBeTruthy();
    await waitFor(() => expect(badges()).toEqual(['18 clicks · 85.7%', '3 clicks · 14.3%', '3 clicks · 14.3%', '0 clicks · 0.0%']));
    const details = [...frameDoc().getElementById(CLICK_MAP_IDS.details(1))!.querySelectorAll('dd')].map((dd) => dd.textContent);
    expect(details).toEqual(['https://example.org/news', '18', '85.7%', '10', '90.9%']);

    await user.click(toggle);
    await waitFor(() => expect(badges()[0]).toBe('30 clicks · 60.0%'));
  });
});

describe('Click performance: an A/B test', () => {
  const variantHtml = (letter: string, id: number) =>
    `<!DOCTYPE html><html><body><p>Layout ${letter}</p><a href="https://example.org/${letter}" data-link-id="${id}">Go</a></body></html>`;
  const figures = [0, 1].map((variant) => ({
    variant,
    recipients: 10,
    sent: 10,
    openedHuman: 0,
    openedMachine: 0,
    clickedHuman: 0,
    clickedMachine: 0,
  }));
  const test = (templates: [number | null, number | null], winner: number | null = null): AbTest => ({
    testShare: 20,
    waitHours: 2,
    measure: 'PEOPLE_CLICKS',
    defaultVariant: 0,
    variants: templates.map((templateId, n) => ({
      subject: `Subject ${n}`,
      previewText: null,
      fromName: null,
      templateId,
      templateName: templateId === null ? null : 'Bold layout',
    })),
    phase: winner === null ? 'TESTING' : 'DECIDED',
    startedAt: '2024-06-02T08:00:00.000Z',
    endsAt: '2024-06-02T10:00:00.000Z',
    winner,
    decidedAt: winner === null ? null : '2024-06-02T10:00:00.000Z',
    decidedBy: winner === null ? null : 'AUTOMATIC',
    verdict: null,
    figures,
    current: null,
  });

  function setupTest(abTest: AbTest) {
    const api = createFakeApi({
      campaigns: [campaign({ id: 5, name: 'Spring news', status: 'SENT', html: variantHtml('a', 1) })],
      stats: { 5: { jobsSent: 20, jobsFailed: 0, totalContactsCount: 100 } },
      links: { 5: [link(1, 'https://example.org/a', 9, 7)] },
      abTests: { 5: abTest },
      variantClicks: {
        5: [
          { html: variantHtml('a', 1), links: [link(1, 'https://example.org/a', 4, 3)] },
          abTest.variants[1]!.templateId === null
            ? { html: variantHtml('a', 1), links: [link(1, 'https://example.org/a', 5, 4)] }
            : { html: variantHtml('b', 2), links: [link(2, 'https://example.org/b', 6, 5)] },
        ],
      },
    });
    return { api, ...renderApp('/campaigns/reports/5?tab=click-performance', api) };
  }

  const urls = async () =>
    within(await screen.findByRole('table', { name: 'Links in this email' }))
      .getAllByRole('row')
      .slice(1)
      .map((row) =>
        within(row)
          .getAllByRole('cell')
          .slice(0, 2)
          .map((cell) => cell.textContent),
      );

  it("with a template variant, shows one variant's links and clicks at a time, the winner's first, and its own map", async () => {
    const { api, user } = setupTest(test([null, 4], 1));
    const picker = await screen.findByRole('combobox', { name: 'A/B test variant' });
    // No "all variants": the two mails have different links.
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Variant A', 'Variant B (winner)']);
    expect((picker as HTMLSelectElement).value).toBe('1');
    await waitFor(async () => expect(await urls()).toEqual([['https://example.org/b', '6 (100.0%)0 by people']]));
    expect(api.calls('GET', '/api/reports/5/clicks')).toHaveLength(0);

    const { doc } = await openClickMap(user);
    expect(doc.body.textContent).toContain('Layout b');
    expect([...doc.querySelectorAll('body a[data-link-id]')].map((a) => a.getAttribute('data-link-id'))).toEqual(['2']);
    await user.click(screen.getByRole('button', { name: 'Close', hidden: true }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Click Map', hidden: true })).toBeNull());

    await user.selectOptions(screen.getByRole('combobox', { name: 'A/B test variant', hidden: true }), '0');
    await waitFor(async () => expect(await urls()).toEqual([['https://example.org/a', '4 (100.0%)0 by people']]));
    const again = await openClickMap(user);
    expect(again.doc.body.textContent).toContain('Layout a');
    expect([...again.doc.querySelectorAll('body a[data-link-id]')].map((a) => a.getAttribute('data-link-id'))).toEqual(['1']);
  }, 30_000);

  it("with the same template for every variant, shows all recipients' clicks first, and each variant's on choice", async () => {
    const { user } = setupTest(test([null, null]));
    const picker = await screen.findByRole('combobox', { name: 'A/B test variant' });
    expect(
      within(picker)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['All variants', 'Variant A', 'Variant B']);
    await waitFor(async () => expect(await urls()).toEqual([['https://example.org/a', '9 (100.0%)0 by people']]));
    await user.selectOptions(picker, '1');
    await waitFor(async () => expect(await urls()).toEqual([['https://example.org/a', '5 (100.0%)0 by people']]));
  });

  it('shows no picker for a campaign without an A/B test', async () => {
    setup();
    await screen.findByRole('table', { name: 'Links in this email' });
    expect(screen.queryByRole('combobox', { name: 'A/B test variant' })).toBeNull();
  });
});
