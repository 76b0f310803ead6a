import { describe, expect, it } from 'vitest';
import { campaign } from '../../../test/fake-api';
import { draftOf, updateInputOf } from './draft';
import { PRESEND_MESSAGES, presendError, suppressedNote } from './presend';
import { MAX_TEST_ADDRESSES, parseTestAddresses } from './testAddresses';

const ready = draftOf(
  campaign({
    id: 1,
    name: 'Spring',
    audienceId: 7,
    audienceName: 'Newsletter',
    templateId: 3,
    template: { id: 3, name: 'Welcome', html: '', preview: null },
    subject: 'News',
    fromName: 'Mia',
    fromEmail: 'news@example.org',
  }),
);

describe('presendError', () => {
  it('passes a complete draft with an authorized sender', () => {
    expect(presendError(ready, ['news@example.org'])).toBeNull();
  });

  it('reports only the first failing check, in the spec order', () => {
    const empty = { ...ready, audience: null, template: null, subject: ' ', fromName: '', fromEmail: '' };
    expect(presendError(empty, [])).toBe(PRESEND_MESSAGES.audience);
    expect(presendError({ ...empty, audience: ready.audience }, [])).toBe(PRESEND_MESSAGES.template);
    expect(presendError({ ...ready, fromEmail: 'other@example.org' }, ['news@example.org'])).toBe(PRESEND_MESSAGES.fromEmail);
  });

  it('leaves the sender to the server while the authorized list is unknown, and skips the audience for a test', () => {
    expect(presendError({ ...ready, fromEmail: 'other@example.org' }, undefined)).toBeNull();
    expect(presendError({ ...ready, audience: null }, undefined, { needsAudience: false })).toBeNull();
  });
});

describe('updateInputOf', () => {
  it('trims and sends blank fields as null', () => {
    expect(updateInputOf({ ...ready, name: ' Spring ', subject: ' ', previewText: '', template: null })).toEqual({
      name: 'Spring',
      audienceId: 7,
      audienceName: 'Newsletter',
      fromName: 'Mia',
      fromEmail: 'news@example.org',
      subject: null,
      previewText: null,
      templateId: null,
      segmentId: null,
    });
  });
});

describe('parseTestAddresses', () => {
  it('splits on commas, trims, drops blanks and repeats', () => {
    expect(parseTestAddresses(' a@example.org,, b@example.org ,a@example.org')).toEqual({ emails: ['a@example.org', 'b@example.org'] });
  });

  it('names what is not an address, and refuses none or too many', () => {
    expect(parseTestAddresses('a@example.org, nope, c@')).toEqual({ problem: 'Not an email address: nope, c@' });
    expect(parseTestAddresses(' , ')).toEqual({ problem: 'Enter at least one email address' });
    const many = Array.from({ length: MAX_TEST_ADDRESSES + 1 }, (_, i) => `p${i}@example.org`).join(',');
    expect(parseTestAddresses(many)).toEqual({ problem: `At most ${MAX_TEST_ADDRESSES} addresses` });
  });
});

describe('suppressedNote', () => {
  const counts = (unsubscribed: number, hardBounced: number, complained: number) => ({
    suppressedContacts: unsubscribed + hardBounced + complained,
    unsubscribed,
    hardBounced,
    complained,
  });

  it('says nothing when no valid contact is suppressed, or the count is unknown', () => {
    expect(suppressedNote(counts(0, 0, 0), 'them')).toBeNull();
    expect(suppressedNote(null, 'them')).toBeNull();
    expect(suppressedNote(undefined, 'audience')).toBeNull();
  });

  it('names how many are skipped and each reason that applies', () => {
    expect(suppressedNote(counts(1, 0, 0), 'them')).toBe('1 of them is suppressed and will be skipped (1 unsubscribed).');
    expect(suppressedNote(counts(2, 3, 1), 'them')).toBe(
      '6 of them are suppressed and will be skipped (2 unsubscribed, 3 bounced for good, 1 complained).',
    );
    expect(suppressedNote(counts(0, 2, 0), 'audience')).toBe(
      "2 of the audience's valid contacts are suppressed and will be skipped (2 bounced for good).",
    );
  });
});
