/**
 * Embedded stand-in for the certificates SNS signs SES events with, for the one-command stack with
 * the embedded SES (EMBEDDED_SNS_CERTIFICATE_FILE; config.ts refuses it in production).
 *
 * Locally nothing publishes SES events to SNS, and nothing local can sign as SNS. With this, the
 * webhook verifies every message against the configured certificate instead of fetching the one at
 * its SigningCertURL; everything else the webhook demands stays as it is: a SigningCertURL that is
 * an https SNS certificate address, a signature over SNS's canonical string (version 1 or 2), a
 * certificate still valid, a topic of SNS_TOPIC_ARNS, each MessageId applied once. Whoever holds the
 * certificate's private key (the e2e suite, a developer trying bounces) can then post delivery,
 * bounce and complaint events for the mail the embedded SES took.
 */
import { readFileSync } from 'node:fs';
import { X509Certificate } from 'node:crypto';
import { snsVerifier, type SnsVerifier } from '../../src/services/ses-events/sns-message.js';

/** A verifier whose certificate, whatever SNS address a message names, is `certificatePem`. */
export function embeddedSnsVerifier(certificatePem: string): SnsVerifier {
  // Refused at start rather than at the first event.
  new X509Certificate(certificatePem);
  return snsVerifier(async () => certificatePem);
}

/** The verifier of EMBEDDED_SNS_CERTIFICATE_FILE; only next to a local SES (embedded or on this machine), whose mail it is about. */
export function embeddedSnsVerifierFromFile(file: string, sesLocal: boolean): SnsVerifier {
  if (!sesLocal) {
    throw new Error('EMBEDDED_SNS_CERTIFICATE_FILE is for the embedded SES only: unset it, or SES_ENDPOINT and the AWS credentials');
  }
  return embeddedSnsVerifier(readFileSync(file, 'utf8'));
}
