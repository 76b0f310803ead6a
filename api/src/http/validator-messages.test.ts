/**
 * What the contract's validator answers reaches members through the screens' error boxes: each
 * kind of finding is a sentence in the product's words that keeps the field's name, and an
 * impossible date is refused, never moved to another day.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/support/app.js';
import { bearer } from '../../test/support/tokens.js';
import { CALENDAR_FORMATS } from './validator-gaps.js';

let t: TestApp;
let auth: string;

beforeAll(async () => {
  t = await createTestApp();
  auth = await bearer();
});
afterAll(async () => {
  await t?.close();
});

/** A campaign that does not exist: a time that passes the contract reaches the route, which answers for it. */
const schedule = (at: unknown) => request(t.app).post('/api/campaigns/999999/schedule').set('Authorization', auth).send({ at });

/** The validator's own wording, for developers: none of it may reach a member. */
const DEVELOPER_WORDING = /request\/|must NOT|must match|must have required|undefined|openapi|media type not|unsupported media/;

describe('impossible dates', () => {
  const DATE_TIME_MESSAGE = 'The field "at" must be a real date and time with its time zone, such as 2027-03-01T09:30:00Z.';

  it.each([
    ['a 30 February', '2027-02-30T10:00:00Z'],
    ['a 29 February outside a leap year', '2027-02-29T10:00:00Z'],
    ['a 29 February of a century that is not a leap year', '2100-02-29T10:00:00Z'],
    ['a 31 April, with an offset', '2027-04-31T10:00:00+05:30'],
    ['a 32nd day', '2027-01-32T10:00:00Z'],
    ['a 13th month', '2027-13-01T10:00:00Z'],
    ['a day 0', '2027-03-00T10:00:00Z'],
    ['24:00:00', '2027-03-01T24:00:00Z'],
    ['a 60th minute', '2027-03-01T10:60:00Z'],
    ['a leap second', '2027-03-01T23:59:60Z'],
    ['an offset of 24 hours', '2027-03-01T10:00:00+24:00'],
    ['an offset of 60 minutes', '2027-03-01T10:00:00+05:60'],
    ['no time zone', '2027-03-01T10:00:00'],
    ['a date alone', '2027-03-01'],
  ])('refuses %s (%s) with 400, naming the field', async (_case, at) => {
    const res = await schedule(at);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(DATE_TIME_MESSAGE);
    expect(res.body.errors).toEqual([{ path: '/body/at', message: DATE_TIME_MESSAGE, errorCode: 'format.openapi.validation' }]);
  });

  it.each([
    ['a 29 February of a leap year', '2028-02-29T10:00:00Z'],
    ['a 29 February of a leap century', '2400-02-29T10:00:00Z'],
    ['a 31 December at 23:59:59 with fractions and an offset', '2027-12-31T23:59:59.999+05:30'],
    ['lower-case t and z', '2027-04-30t00:00:00z'],
  ])('lets %s (%s) through to the route', async (_case, at) => {
    // The route judges it (a year ahead at most, then the campaign): the contract had nothing to say.
    const res = await schedule(at);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.message).not.toBe(DATE_TIME_MESSAGE);
  });

  it('judges the date format as a calendar does, for any field of that format', () => {
    const { date } = CALENDAR_FORMATS;
    expect(['2028-02-29', '2000-02-29', '2027-12-31'].filter((day) => !date.validate(day))).toEqual([]);
    expect(['2027-02-29', '1900-02-29', '2027-06-31', '2027-00-10', '2027-1-10', '2027-01-10T00:00:00Z'].filter(date.validate)).toEqual([]);
  });
});

describe("the validator's findings, as sentences", () => {
  const post = (path: string) => request(t.app).post(path).set('Authorization', auth);
  const get = (path: string) => request(t.app).get(path).set('Authorization', auth);

  it.each([
    ['a missing field', () => post('/api/audiences').send({}), 'The field "name" is required.'],
    ['a field of the wrong type', () => post('/api/audiences').send({ name: 5 }), 'The field "name" must be text.'],
    ['an empty field', () => post('/api/audiences').send({ name: '' }), 'The field "name" must not be empty.'],
    [
      'a field too long',
      () => post('/api/audiences').send({ name: 'n'.repeat(201) }),
      'The field "name" must have at most 200 characters.',
    ],
    [
      'a field the request does not take',
      () => post('/api/audiences').send({ name: 'News', colour: 'blue' }),
      'The field "colour" is not one this request takes.',
    ],
    [
      'a value outside an enumeration',
      () => post('/api/campaigns/1/follow-up').send({ recipients: 'EVERYONE' }),
      'The field "recipients" must be one of: NOT_OPENED, NOT_CLICKED.',
    ],
    ['a number below its minimum', () => get('/api/audiences?page=0'), 'The parameter "page" must be at least 1.'],
    ['a number above its maximum', () => get('/api/audiences?limit=1001'), 'The parameter "limit" must be at most 1000.'],
    [
      'a parameter the request does not take',
      () => get('/api/audiences?colour=blue'),
      'The parameter "colour" is not one this request takes.',
    ],
    ['a path part that is not a number', () => get('/api/audiences/first'), 'The "id" in the address must be a whole number.'],
    ['a number spelled Infinity', () => get('/api/audiences?page=Infinity'), 'The parameter "page" must be a number.'],
  ])('%s', async (_case, send, sentence) => {
    const res = await send();
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(sentence);
    expect(res.body.message).not.toMatch(DEVELOPER_WORDING);
    for (const item of res.body.errors ?? []) expect(item.message).not.toMatch(DEVELOPER_WORDING);
  });

  it('says what body a request needs when it has none, or one of another type (415)', async () => {
    const none = await post('/api/audiences');
    expect(none.status).toBe(415);
    expect(none.body).toEqual({ message: 'This request needs a body, sent as application/json.' });

    const text = await post('/api/audiences').set('Content-Type', 'text/plain').send('News');
    expect(text.status).toBe(415);
    expect(text.body).toEqual({ message: 'This request does not take a body of type text/plain; it needs one, sent as application/json.' });

    const upload = await post('/api/audiences/1/import/file?type=csv').set('Content-Type', 'application/json').send({ file: 'x' });
    expect(upload.status).toBe(415);
    expect(upload.body.message).toBe(
      'This request does not take a body of type application/json; it needs one, sent as multipart/form-data.',
    );
  });

  it('says a body is not valid JSON', async () => {
    const res = await post('/api/audiences').set('Content-Type', 'application/json').send('{"name":');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "The request's body is not valid JSON." });
  });

  it('says which method an address does not take (405)', async () => {
    const res = await request(t.app).patch('/api/audiences').set('Authorization', auth).send({ name: 'News' });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ message: 'This address does not take PATCH requests.' });
  });
});
