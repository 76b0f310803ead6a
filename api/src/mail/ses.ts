/**
 * The SES v2 client. Locally SES_ENDPOINT points at a SES-compatible server (aws-ses-v2-local);
 * nothing else in the code knows the difference.
 */
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { AwsRestJsonProtocol, JsonCodec } from '@aws-sdk/core/protocols';
import type { Config } from '../config.js';

export { SESv2Client };

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLocalEndpoint(endpoint: string | undefined): boolean {
  if (!endpoint) return false;
  try {
    return LOCAL_HOSTS.has(new URL(endpoint).hostname);
  } catch {
    return false;
  }
}

type ProtocolSettings = ConstructorParameters<typeof AwsRestJsonProtocol>[0];

/**
 * SES v2's own protocol (REST JSON) with the SDK's JSON.stringify-based codec. The default codec
 * escapes every string character by character in JavaScript: for a mail's 10 KB of html and its
 * text part that was the largest single cost of a send. Same wire format; the constructor takes
 * the codec for this purpose.
 */
class RestJsonProtocol extends AwsRestJsonProtocol {
  constructor(settings: ProtocolSettings) {
    super({
      ...settings,
      jsonCodec: new JsonCodec({ timestampFormat: { useTrait: true, default: 7 }, httpBindings: true, jsonName: true }),
    });
  }
}

export function createSesClient(config: Pick<Config, 'aws'>): SESv2Client {
  const { region, sesEndpoint } = config.aws;
  return new SESv2Client({
    region,
    ...(sesEndpoint ? { endpoint: sesEndpoint } : {}),
    // One call, never a retry by the SDK: a call that timed out may have sent the mail, and
    // sending is at most once per job (DESIGN.md section 3). Our own code decides what to retry.
    maxAttempts: 1,
    protocol: RestJsonProtocol,
    // A connection that never opens sent nothing; a call that hangs is given up (its job becomes
    // UNKNOWN) well before the sweep would have to guess.
    requestHandler: { connectionTimeout: 5_000, requestTimeout: 30_000, throwOnRequestTimeout: true },
    // The local server wants a signed request but checks no key; real SES uses the default chain.
    ...(isLocalEndpoint(sesEndpoint) ? { credentials: { accessKeyId: 'local', secretAccessKey: 'local' } } : {}),
  });
}
