/**
 * The embedded SES through the mail sender (signed as the SDK signs): it keeps what it takes (its inbox), and refuses the
 * recipients SES refuses, as SES does, so the sender records those mails as failed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendEmailInput } from '../../src/mail/message.js';
import { createMailSender, type MailSender } from '../../src/mail/ses-sender.js';
import { startTestSes, type TestSes } from '../../test/support/ses.js';
import { ILLEGAL_ADDRESS, INBOX_CONTENT_SECURITY_POLICY } from './ses.js';

let ses: TestSes;
let sender: MailSender;
beforeAll(async () => {
  ses = await startTestSes();
  sender = createMailSender(ses.client);
});
afterAll(async () => {
  await sender?.close();
  await ses?.close();
});

const mailTo = (to: string, subject: string) =>
  sendEmailInput(
    { subject, html: '<p>Hello</p>', text: 'Hello', unsubscribeUrl: undefined },
    { from: { name: 'News', email: 'newsletter@example.org' }, to, configurationSet: undefined },
  );

const sendTo = async (mail: ReturnType<typeof mailTo>) => sender.send(await sender.prepare(mail));

async function inbox(): Promise<{ messageId: string; subject: string; destination: { to: string[] } }[]> {
  const response = await fetch(`${ses.endpoint}/store`);
  return ((await response.json()) as { emails: { messageId: string; subject: string; destination: { to: string[] } }[] }).emails;
}

describe('the embedded SES', () => {
  it('takes a mail to an ASCII address and keeps it', async () => {
    const outcome = await sendTo(mailTo('ada@example.org', 'kept'));
    expect(outcome.kind).toBe('sent');
    const mail = (await inbox()).find((email) => email.subject === 'kept');
    expect(mail).toMatchObject({ destination: { to: ['ada@example.org'] } });
    expect(outcome).toMatchObject({ messageId: mail!.messageId });
  });

  it('refuses a recipient that is not 7-bit ASCII (local part or domain) with a 400, keeping nothing', async () => {
    for (const to of ['zoë@example.org', 'ada@bücher.example']) {
      // As given, not as the sender encodes it (sendEmailInput puts a domain in its ASCII form).
      const outcome = await sendTo({ ...mailTo(to, `refused ${to}`), Destination: { ToAddresses: [to] } });
      expect(outcome).toEqual({ kind: 'rejected', reason: ILLEGAL_ADDRESS });
    }
    expect((await inbox()).filter((email) => email.subject.startsWith('refused'))).toEqual([]);
    // The Punycode form of the domain is what SES takes, and what the sender sends.
    expect((await sendTo(mailTo('ada@xn--bcher-kva.example', 'punycode'))).kind).toBe('sent');
    expect((await sendTo(mailTo('ada@bücher.example', 'encoded'))).kind).toBe('sent');
    expect((await inbox()).find((email) => email.subject === 'encoded')).toMatchObject({
      destination: { to: ['ada@xn--bcher-kva.example'] },
    });
  });
});

describe('the inbox viewer', () => {
  it('is served with a policy that loads no remote image into the page or the mails it shows', async () => {
    const response = await fetch(`${ses.endpoint}/`);
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<iframe');
    expect(response.headers.get('content-security-policy')).toBe(INBOX_CONTENT_SECURITY_POLICY);
    const directives = new Map(
      INBOX_CONTENT_SECURITY_POLICY.split(';').map((directive) => {
        const [name, ...sources] = directive.trim().split(/\s+/);
        return [name!, sources];
      }),
    );
    expect(directives.get('default-src')).toEqual(["'none'"]);
    expect(directives.get('img-src')).toEqual(['data:', 'blob:']);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
  });
});
