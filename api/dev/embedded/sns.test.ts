/**
 * The embedded stack's SNS certificate stand-in: messages signed with the configured certificate's
 * key verify; anything else the webhook refuses is still refused.
 */
import { createSign, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { stringToSign, type SnsMessage } from '../../src/services/ses-events/sns-message.js';
import { embeddedSnsVerifier, embeddedSnsVerifierFromFile } from './sns.js';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '../../test/fixtures/sns');
const CERT_FILE = join(FIXTURES, 'signing-cert.pem');
const KEY = readFileSync(join(FIXTURES, 'signing-key.pem'), 'utf8');

function signed(key: string, fields: Partial<SnsMessage> = {}): SnsMessage {
  const message: SnsMessage = {
    Type: 'Notification',
    MessageId: 'm-1',
    TopicArn: 'arn:aws:sns:us-east-1:123456789012:events',
    Message: JSON.stringify({ eventType: 'Delivery', mail: { messageId: 'ses-1' } }),
    Timestamp: '2026-11-23T10:00:00.000Z',
    SignatureVersion: '2',
    SigningCertURL: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-local.pem',
    Signature: '',
    ...fields,
  };
  const signer = createSign(message.SignatureVersion === '1' ? 'RSA-SHA1' : 'RSA-SHA256');
  signer.update(stringToSign(message), 'utf8');
  return { ...message, Signature: signer.sign(key, 'base64') };
}

describe('embeddedSnsVerifier', () => {
  const verify = embeddedSnsVerifierFromFile(CERT_FILE, true);

  it('verifies messages signed with the key of the configured certificate, in either signature version', async () => {
    await expect(verify(signed(KEY))).resolves.toBeUndefined();
    await expect(verify(signed(KEY, { SignatureVersion: '1' }))).resolves.toBeUndefined();
  });

  it('refuses another signer, a changed message and a certificate address that is not SNS', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    await expect(verify(signed(other))).rejects.toThrow(/signature does not verify/);
    await expect(verify({ ...signed(KEY), Message: '{"eventType":"Bounce"}' })).rejects.toThrow(/signature does not verify/);
    await expect(verify(signed(KEY, { SigningCertURL: 'https://example.test/SimpleNotificationService-local.pem' }))).rejects.toThrow(
      /not an SNS certificate/,
    );
  });

  it('is refused without the embedded SES, and for a file that holds no certificate', () => {
    expect(() => embeddedSnsVerifierFromFile(CERT_FILE, false)).toThrow(/embedded SES only/);
    expect(() => embeddedSnsVerifier('not a certificate')).toThrow();
  });
});
