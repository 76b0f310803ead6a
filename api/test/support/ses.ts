/**
 * The embedded SES default (aws-ses-v2-local, see dev/embedded/ses.ts) on a free port, with a
 * client of it, for tests that send mail or read the quota through the real SDK.
 */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { startEmbeddedSes } from '../../dev/embedded/ses.js';
import { createSesClient, type SESv2Client } from '../../src/mail/ses.js';

export interface TestSes {
  endpoint: string;
  client: SESv2Client;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startTestSes(
  quota: { max24HourSend: number; maxSendRate: number } = { max24HourSend: 200, maxSendRate: 1 },
): Promise<TestSes> {
  const ses = await startEmbeddedSes({ host: '127.0.0.1', port: await freePort(), ...quota });
  const client = createSesClient({ aws: { region: 'us-east-1', sesEndpoint: ses.endpoint, sesConfigurationSet: undefined } });
  return {
    endpoint: ses.endpoint,
    client,
    close: async () => {
      client.destroy();
      await ses.stop();
    },
  };
}
