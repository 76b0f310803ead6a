/**
 * A local webhook receiver for tests: records every POST (headers and raw body) and answers what the test
 * says (`answer(n)`: the status for the n-th request, from 1; or a delay that outlasts the sender's limit).
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface WebhookReceiver {
  url: string;
  received: ReceivedWebhook[];
  /** The status of the n-th request (from 1); default 204. 'hang' never answers. */
  answer: (n: number, request: ReceivedWebhook) => number | 'hang';
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const receiver: WebhookReceiver = {
    url: '',
    received,
    answer: () => 204,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const request = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
      received.push(request);
      const status = receiver.answer(received.length, request);
      if (status === 'hang') return;
      res.writeHead(status).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
