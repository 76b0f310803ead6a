// The subscribe benchmark's ceiling: a bare Node HTTP server on PORT in HTTP_PROCESSES processes
// (node:cluster, as the API runs), answering every request with the API's answer to a sign-up, byte for
// byte as the benchmark recorded it (BARE_ANSWER: JSON { status, headers, body (base64) }), once it has
// read the request's body; no checks, no database, no mail. It listens as the API does (LISTEN_BACKLOG).
import { Buffer } from 'node:buffer';
import cluster from 'node:cluster';
import { createServer } from 'node:http';
import { LISTEN_BACKLOG } from '../../../api/src/http/server.ts';

const processes = Number(process.env.HTTP_PROCESSES);
if (cluster.isPrimary) {
  for (let i = 0; i < processes; i++) cluster.fork();
  let listening = 0;
  cluster.on('listening', () => ++listening === processes && console.log('ready'));
  const stop = () => {
    for (const worker of Object.values(cluster.workers)) worker.process.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
} else {
  const { status, headers, body } = JSON.parse(process.env.BARE_ANSWER);
  const payload = Buffer.from(body, 'base64');
  createServer((request, response) => {
    request.resume();
    request.on('end', () => response.writeHead(status, headers).end(payload));
  }).listen({ port: Number(process.env.PORT), host: '127.0.0.1', backlog: LISTEN_BACKLOG });
  process.on('SIGTERM', () => process.exit(0));
}
