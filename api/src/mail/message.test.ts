import { describe, expect, it } from 'vitest';
import { formatSender, HeaderValueError, sendEmailInput } from './message.js';

const mail = { subject: 'Hello', html: '<p>Hi</p>', text: 'Hi', unsubscribeUrl: 'https://mail.example.org/unsubscribe/abc.def' };
const envelope = { from: { name: 'News', email: 'news@example.org' }, to: 'ann@example.org', configurationSet: 'mailroom' };

describe('formatSender', () => {
  it('quotes a plain name, escaping quotes and backslashes', () => {
    expect(formatSender({ name: 'Example News', email: 'n@example.org' })).toBe('"Example News" <n@example.org>');
    expect(formatSender({ name: 'A "B" \\ C', email: 'n@example.org' })).toBe('"A \\"B\\" \\\\ C" <n@example.org>');
    expect(formatSender({ name: '  ', email: 'n@example.org' })).toBe('n@example.org');
  });

  it('encodes other names as RFC 2047 words of at most 75 characters', () => {
    const name = 'Élodie – 新闻 '.repeat(8).trim();
    const formatted = formatSender({ name, email: 'n@example.org' });
    const words = formatted.replace(/ <n@example\.org>$/, '').split(' ');
    for (const word of words) expect(word.length).toBeLessThanOrEqual(75);
    const decoded = words.map((w) => Buffer.from(/^=\?UTF-8\?B\?(.*)\?=$/.exec(w)![1]!, 'base64').toString('utf8')).join('');
    expect(decoded).toBe(name);
  });

  it('refuses CR or LF in the name or the address', () => {
    expect(() => formatSender({ name: 'News\r\nBcc: x@evil.test', email: 'n@example.org' })).toThrow(HeaderValueError);
    expect(() => formatSender({ name: 'News', email: 'n@example.org\n' })).toThrow(HeaderValueError);
  });
});

describe('sendEmailInput', () => {
  it('sends to an internationalised domain in its ASCII form, and an address SES refuses as it is', () => {
    const to = (address: string) => sendEmailInput(mail, { ...envelope, to: address }).Destination?.ToAddresses;
    expect(to('ann@München.de')).toEqual(['ann@xn--mnchen-3ya.de']);
    expect(to('bob@例え.テスト')).toEqual(['bob@xn--r8jz45g.xn--zckzah']);
    expect(to('ann@example.org')).toEqual(['ann@example.org']);
    expect(to('café@münchen.de')).toEqual(['café@münchen.de']);
  });

  it('builds SendEmail input with both parts, the one-click unsubscribe headers, the configuration set and tags', () => {
    expect(sendEmailInput(mail, { ...envelope, tags: { campaign_id: 4, job_id: 99 } })).toEqual({
      FromEmailAddress: '"News" <news@example.org>',
      Destination: { ToAddresses: ['ann@example.org'] },
      Content: {
        Simple: {
          Subject: { Data: 'Hello', Charset: 'UTF-8' },
          Body: { Html: { Data: '<p>Hi</p>', Charset: 'UTF-8' }, Text: { Data: 'Hi', Charset: 'UTF-8' } },
          Headers: [
            { Name: 'List-Unsubscribe', Value: '<https://mail.example.org/unsubscribe/abc.def>' },
            { Name: 'List-Unsubscribe-Post', Value: 'List-Unsubscribe=One-Click' },
          ],
        },
      },
      ConfigurationSetName: 'mailroom',
      EmailTags: [
        { Name: 'campaign_id', Value: '4' },
        { Name: 'job_id', Value: '99' },
      ],
    });
  });

  it('leaves out what a test mail does not have', () => {
    const input = sendEmailInput({ ...mail, unsubscribeUrl: undefined }, { ...envelope, configurationSet: undefined });
    expect(input.Content?.Simple?.Headers).toBeUndefined();
    expect(input.ConfigurationSetName).toBeUndefined();
    expect(input.EmailTags).toBeUndefined();
  });

  it('refuses a subject with a line break, and tags SES would refuse', () => {
    expect(() => sendEmailInput({ ...mail, subject: 'Hi\r\nBcc: x@evil.test' }, envelope)).toThrow(HeaderValueError);
    expect(() => sendEmailInput({ ...mail, subject: 'Hi\nthere' }, envelope)).toThrow('The subject must be on one line');
    expect(() => sendEmailInput(mail, { ...envelope, tags: { 'campaign id': 1 } })).toThrow(RangeError);
  });
});
