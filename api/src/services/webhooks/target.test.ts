/**
 * Server-side request forgery (issue 27): which addresses a webhook may reach, the registration check with a
 * resolver of the test's own, and the connection-time check (`guardedLookup`) that a delivery goes through in
 * production, against a name that resolves to loopback.
 */
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { startWebhookReceiver } from '../../../test/support/webhook-receiver.js';
import { checkTarget, guardedLookup, HTTPS_ONLY, isPublicAddress, privateTargetMessage } from './target.js';

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.169.254', // the cloud metadata service
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:169.254.169.254',
    '::ffff:10.0.0.1',
    '64:ff9b::a00:1',
    '2002:a00:1::',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['93.184.215.14', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });
});

describe('checkTarget', () => {
  const dns = (answers: Record<string, string[]>) => async (host: string) => answers[host] ?? [];

  it('in production, wants https and public addresses only, for every address a name has', async () => {
    const resolve = dns({
      'hooks.example.org': ['93.184.215.14'],
      'mixed.example.org': ['93.184.215.14', '10.0.0.5'],
      'inner.example.org': ['fd00::5'],
    });
    await expect(checkTarget('https://hooks.example.org/in', true, resolve)).resolves.toBeInstanceOf(URL);
    await expect(checkTarget('http://hooks.example.org/in', true, resolve)).rejects.toThrow(HTTPS_ONLY);
    await expect(checkTarget('https://mixed.example.org/in', true, resolve)).rejects.toThrow(privateTargetMessage('mixed.example.org'));
    await expect(checkTarget('https://inner.example.org/in', true, resolve)).rejects.toThrow(privateTargetMessage('inner.example.org'));
    await expect(checkTarget('https://127.0.0.1/in', true, resolve)).rejects.toThrow(privateTargetMessage('127.0.0.1'));
    await expect(checkTarget('https://[::ffff:7f00:1]/in', true, resolve)).rejects.toThrow(/private, loopback/);
    await expect(checkTarget('https://nowhere.example.org/in', true, resolve)).rejects.toThrow(/could not be resolved/);
  });

  it('outside production allows local receivers, still only http(s) without credentials', async () => {
    await expect(checkTarget('http://127.0.0.1:9/in', false)).resolves.toBeInstanceOf(URL);
    await expect(checkTarget('file:///etc/passwd', false)).rejects.toThrow(/http/);
    await expect(checkTarget('https://a:b@example.org/', false)).rejects.toThrow(/user name/);
  });
});

describe('guardedLookup', () => {
  it('refuses, at connection time, a name that resolves to loopback, while the same receiver is reached without it', async () => {
    const receiver = await startWebhookReceiver();
    const port = new URL(receiver.url).port;
    const guarded = new Agent({ connect: { lookup: guardedLookup } });
    const plain = new Agent();
    try {
      await expect(request(`http://localhost:${port}/x`, { method: 'POST', body: '{}', dispatcher: guarded })).rejects.toMatchObject({
        code: 'EWEBHOOKTARGET',
      });
      const answered = await request(`http://localhost:${port}/x`, { method: 'POST', body: '{}', dispatcher: plain });
      expect(answered.statusCode).toBe(204);
      await answered.body.dump();
      expect(receiver.received).toHaveLength(1);
    } finally {
      await guarded.close();
      await plain.close();
      await receiver.close();
    }
  });
});
