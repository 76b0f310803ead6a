/**
 * A/B tests (issue 28): a campaign given two subject variants in the editor's "A/B test" section, sent: half the
 * recipients get the test phase, split between the variants, and the campaign keeps sending while the rest waits;
 * the report shows each variant's figures, people and machines apart, and the time the winner is chosen; a member
 * picks variant B early, and exactly the rest get B, once. Variant B has a template of its own: a test mail of it is
 * sent from the editor, and the report's click performance shows each variant's links apart. Wide in the light
 * theme and at 390 px in the dark one; axe on every screen.
 */
import { expect, test } from '@playwright/test';
import { signInWithApi } from './support/audiences';
import { expectNoAxeViolations } from './support/browser-checks';
import {
  authorizedSenders,
  openSection,
  people,
  seedAudience,
  seedCampaign,
  seedTemplate,
  uniqueTag,
  waitForStatus,
} from './support/campaigns';
import { mailsTo } from './support/local-ses';

for (const { theme, width } of [
  { theme: 'light', width: 1280 },
  { theme: 'dark', width: 390 },
] as const) {
  test(`tests two subjects on half the audience and sends the picked winner to the rest at ${width} px in the ${theme} theme`, async ({
    page,
  }) => {
    test.setTimeout(240_000);
    await page.addInitScript((value) => localStorage.setItem('mailroom.theme', value), theme);
    await page.setViewportSize({ width, height: 844 });
    const api = await signInWithApi(page);
    const tag = uniqueTag();
    const recipients = people(tag, 10);
    const audience = await seedAudience(api, `A/B ${tag}`, recipients);
    const templateId = await seedTemplate(api, `A/B news ${tag}`);
    // Variant B's own template: its link is its own, never in A's click map.
    const shopTemplate = `A/B shop ${tag}`;
    await seedTemplate(
      api,
      shopTemplate,
      '<!doctype html><html><head><meta charset="utf-8"><title>Shop</title></head><body>' +
        '<p>Autumn in the shop</p><p><a href="https://example.org/autumn-shop">Visit the autumn shop</a></p></body></html>',
    );
    const [sender] = await authorizedSenders(api);
    const campaignId = await seedCampaign(api, `A/B ${tag}`, {
      audienceId: audience.id,
      templateId,
      fromName: 'Mia Member',
      fromEmail: sender!,
      subject: 'Autumn news',
    });

    // The editor: the optional section, switched on, two subject variants, half the audience, people's opens.
    await page.goto(`/campaigns/edit/${campaignId}`);
    await openSection(page, 'A/B test');
    const toggle = page.getByRole('switch', { name: 'Test variants of this campaign' });
    await expect(toggle).not.toBeChecked();
    await toggle.check();
    await page.getByRole('textbox', { name: 'Subject of variant A' }).fill(`Variant A ${tag}`);
    await page.getByRole('textbox', { name: 'Subject of variant B' }).fill(`Variant B ${tag}`);
    await page.getByRole('combobox', { name: 'Template of variant B' }).selectOption({ label: shopTemplate });
    await page.getByRole('spinbutton', { name: 'Test share (%)' }).fill('50');
    await page.getByRole('spinbutton', { name: 'Wait (hours)' }).fill('24');
    await expect(page.getByRole('radio', { name: "People's opens" })).toBeChecked();
    await expectNoAxeViolations(page, `the editor's A/B test section (${theme})`);
    await page.getByRole('button', { name: 'Save A/B test' }).click();
    await expect(
      page.getByText("2 variants to 50 % of the recipients; after 24 h the winner by people's opens goes to the rest."),
    ).toBeVisible();
    const saved = (await (await api.get(`/api/campaigns/${campaignId}/ab-test`)).json()) as { data: { variants: { subject: string }[] } };
    expect(saved.data.variants.map((v) => v.subject)).toEqual([`Variant A ${tag}`, `Variant B ${tag}`]);

    // A test mail of variant B: its subject, marked with its letter, and its template.
    await page.getByRole('button', { name: 'Send test email' }).click();
    const testMail = page.getByRole('dialog', { name: 'Send test email' });
    const tester = `tester-${tag}@example.org`;
    await testMail.getByLabel('Email addresses').fill(tester);
    const variantPicker = testMail.getByRole('combobox', { name: 'Variant' });
    await expect(variantPicker.locator('option')).toHaveText([
      `Variant A: subject “Variant A ${tag}”`,
      `Variant B: subject “Variant B ${tag}”, template ${shopTemplate}`,
    ]);
    await variantPicker.selectOption('1');
    await expectNoAxeViolations(page, `the test mail dialog of an A/B test (${theme})`);
    await testMail.getByRole('button', { name: 'Send test' }).click();
    await expect(testMail).toBeHidden();
    await expect
      .poll(async () => (await mailsTo([tester])).map((mail) => mail.subject), { timeout: 30_000 })
      .toEqual([`[Test, variant B] Variant B ${tag}`]);
    expect((await mailsTo([tester]))[0]!.body.html).toContain('Autumn in the shop');
    // Closed, the dialog leaves the page to assistive technology again (nothing left aria-hidden).
    await expect(page.getByRole('button', { name: 'Send test email' })).toBeVisible();
    await expect(page.locator('[aria-hidden="true"]:has(button)')).toHaveCount(0);

    // Sent: five recipients get the test phase, dealt A, B, A, B, A along the draw (three and two); the rest wait.
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Send campaign' });
    await confirm.getByRole('button', { name: 'Send now' }).click();
    await expect(page).toHaveURL(/\/campaigns$/);
    const addresses = recipients.map((p) => p.email);
    await expect.poll(async () => (await mailsTo(addresses)).length, { timeout: 60_000 }).toBe(5);
    const testPhase = await mailsTo(addresses);
    const subjects = testPhase.map((mail) => mail.subject).sort();
    expect(subjects.filter((s) => s === `Variant A ${tag}`).length).toBe(3);
    expect(subjects.filter((s) => s === `Variant B ${tag}`).length).toBe(2);
    expect((await (await api.get(`/api/campaigns/${campaignId}`)).json()).status).toBe('SENDING');

    // The report: the variants' figures and where the test is.
    await page.goto(`/campaigns/reports/${campaignId}`);
    const overview = page.getByRole('tabpanel', { name: 'Overview' });
    const table = overview.getByRole('table', { name: 'A/B test variants' });
    await expect(table.getByRole('row')).toHaveCount(3);
    await expect(table.getByRole('row').nth(1)).toContainText(`Variant A (default)subject “Variant A ${tag}”33`);
    await expect(overview.getByText(/^Testing on 50 % of the recipients\. The winner by people's opens is chosen at/)).toBeVisible();
    await expect(overview.getByText(/^So far: No person has opened any variant yet/)).toBeVisible();
    await expectNoAxeViolations(page, `the report of an A/B test in its test phase (${theme})`);

    // A member picks B early: the other five get B, once each.
    await overview.getByRole('button', { name: 'Send variant B to the rest now' }).click();
    const pick = page.getByRole('alertdialog', { name: 'Pick the winner' });
    await expect(pick).toContainText('Variant B will be sent to every recipient not in the test');
    await expectNoAxeViolations(page, `the pick of the winner (${theme})`);
    await pick.getByRole('button', { name: 'Send to the rest' }).click();
    await waitForStatus(api, campaignId, 'SENT', 60_000);
    await expect.poll(async () => (await mailsTo(addresses)).length, { timeout: 30_000 }).toBe(10);
    const all = await mailsTo(addresses);
    expect(new Set(all.flatMap((mail) => mail.destination.to.map((to) => to.toLowerCase()))).size).toBe(10);
    const rest = all.filter((mail) => !testPhase.some((earlier) => earlier.messageId === mail.messageId));
    expect(rest.map((mail) => mail.subject)).toEqual(Array(5).fill(`Variant B ${tag}`));
    await expect(overview.getByText(/^Variant B won, picked by a member, and was sent to the rest on/)).toBeVisible();
    await expect(table.getByRole('row').nth(2)).toContainText('Variant B (winner)');
    await expectNoAxeViolations(page, `the report of a decided A/B test (${theme})`);

    // Click performance: one variant's links at a time (B has a template of its own), the winner's first.
    await page.getByRole('tab', { name: 'Click Performance' }).click();
    const linkPicker = page.getByRole('combobox', { name: 'A/B test variant' });
    await expect(linkPicker.locator('option')).toHaveText(['Variant A', 'Variant B (winner)']);
    await expect(linkPicker).toHaveValue('1');
    const links = page.getByRole('table', { name: 'Links in this email' });
    await expect(links.locator('tbody tr')).toHaveCount(1);
    await expect(links.locator('tbody tr')).toContainText('https://example.org/autumn-shop');
    await expectNoAxeViolations(page, `the click performance of an A/B test (${theme})`);
    await page.getByRole('button', { name: 'View Click Map' }).click();
    const clickMap = page.getByRole('dialog', { name: 'Click Map' });
    await expect(clickMap).toBeVisible();
    await expect(page.frameLocator('iframe[title="Click map"]').getByRole('link', { name: /Visit the autumn shop/ })).toBeVisible();
    await clickMap.getByRole('button', { name: 'Close' }).click();
    await expect(clickMap).toBeHidden();
    // Closed, the map leaves the page to assistive technology again (nothing left aria-hidden).
    await expect(page.getByRole('button', { name: 'View Click Map' })).toBeVisible();
    await expect(page.locator('[aria-hidden="true"]:has(button)')).toHaveCount(0);
    await linkPicker.selectOption('0');
    await expect(links.locator('tbody tr')).toHaveCount(1);
    await expect(links.locator('tbody tr')).toContainText('https://example.org/news');
    // The page never scrolls sideways.
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true);
  });
}
