import { describe, expect, it } from 'vitest';
import { compileCampaignMail, type MailSource } from './campaign-mail.js';
import { HeaderValueError } from './message.js';
import { createTrackingTokens, trackingUrls } from './tracking-tokens.js';

const tracking = trackingUrls('https://mail.example.org', createTrackingTokens('a-test-secret-of-enough-length'));

const source: MailSource = {
  subject: 'News for {{name}}',
  previewText: 'Dear {{name}}',
  html:
    '<html><body><p title="for {{name}}">Hello {{name}}, from {{City}}</p>' +
    '<a data-link-id="31" href="https://example.org/a?x=1&amp;y=2">A</a></body></html>',
  plainText: null,
  from: { name: 'Example News', email: 'news@example.org' },
  fields: ['name', 'city'],
};
const contact = { email: 'ann@example.org', data: { name: 'Ann', city: 'Paris' } };

const content = (input: ReturnType<ReturnType<typeof compileCampaignMail>>) => input.Content!.Simple!;

describe('compileCampaignMail', () => {
  it("builds a job's mail: to the contact, its values, tracked, with List-Unsubscribe, the configuration set and the job's tags", () => {
    const mail = compileCampaignMail(source, { tracking, configurationSet: 'events' });
    const input = mail({ ...contact, jobId: 7, tags: { campaign_id: 3, job_id: 7 } });
    expect(input.FromEmailAddress).toBe('"Example News" <news@example.org>');
    expect(input.Destination).toEqual({ ToAddresses: ['ann@example.org'] });
    expect(input.ConfigurationSetName).toBe('events');
    expect(input.EmailTags).toEqual([
      { Name: 'campaign_id', Value: '3' },
      { Name: 'job_id', Value: '7' },
    ]);
    expect(content(input).Subject!.Data).toBe('News for Ann');
    expect(content(input).Body!.Html!.Data).toContain(`<a data-link-id="31" href="${tracking.click(7, 31)}">A</a>`);
    expect(content(input).Body!.Html!.Data).toContain('<p title="for Ann">Hello Ann, from Paris</p>');
    expect(content(input).Headers).toEqual([
      { Name: 'List-Unsubscribe', Value: `<${tracking.unsubscribe(7)}>` },
      { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
    ]);
  });

  it('builds a test mail of the same content that differs only by its address, its tracking and its tags', () => {
    const job = compileCampaignMail(source, { tracking, configurationSet: 'events' })({ ...contact, jobId: 7, tags: { job_id: 7 } });
    const test = compileCampaignMail(source, { configurationSet: 'events' })({ ...contact, to: 'qa@example.org' });
    expect(test.Destination).toEqual({ ToAddresses: ['qa@example.org'] });
    expect(test.FromEmailAddress).toBe(job.FromEmailAddress);
    expect(test.ConfigurationSetName).toBe(job.ConfigurationSetName);
    expect(test.EmailTags).toBeUndefined();
    expect(content(test).Headers).toBeUndefined();
    expect(content(test).Subject).toEqual(content(job).Subject);
    // The job's html with its tracking taken out is the test's html, link for link.
    const untracked = content(job)
      .Body!.Html!.Data!.replace(`href="${tracking.click(7, 31)}"`, 'href="https://example.org/a?x=1&amp;y=2"')
      .replace(/<div style="text-align:center[^"]*">If you no longer wish.*?<\/div><img [^>]*\/>/, '');
    expect(content(test).Body!.Html!.Data).toBe(untracked);
    expect(content(job).Body!.Text!.Data).toBe(`${content(test).Body!.Text!.Data}\n\n--\nUnsubscribe: ${tracking.unsubscribe(7)}\n`);
  });

  it('resolves the tags against the headers given: with none, every value is empty', () => {
    const test = compileCampaignMail(
      { ...source, fields: [] },
      { configurationSet: undefined },
    )({ email: '', data: {}, to: 'qa@example.org' });
    expect(content(test).Subject!.Data).toBe('News for ');
    expect(content(test).Body!.Html!.Data).toContain('<p title="for ">Hello , from </p>');
    expect(test.ConfigurationSetName).toBeUndefined();
  });

  it('refuses a subject, sender name or preview text on two lines when compiled, before any recipient', () => {
    for (const broken of [
      { subject: 'a\nb' },
      { from: { name: 'A\r\nBcc: x@example.org', email: 'news@example.org' } },
      { previewText: 'a\rb' },
    ])
      expect(() => compileCampaignMail({ ...source, ...broken }, { configurationSet: undefined })).toThrow(HeaderValueError);
  });
});
