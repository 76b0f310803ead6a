// The tracking benchmark's ceiling: a bare Node HTTP server on PORT in HTTP_PROCESSES processes
// (node:cluster, as the API runs), answering every `/t/o/...` with the API's open answer and every
// `/t/c/...` with its click answer, byte for byte as the benchmark recorded them (BARE_ANSWERS: JSON
// { open, click }, each { status, headers, body (base64) }); no token check, no database.
import { Buffer } from 'node:buffer';
import cluster from 'node:cluster';
import { createServer } from 'node:http';

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
  const { open, click } = JSON.parse(process.env.BARE_ANSWERS);
  const answer = ({ status, headers, body }) => ({ status, headers, body: Buffer.from(body, 'base64') });
  const answers = { o: answer(open), c: answer(click) };
  createServer((request, response) => {
    const found = request.url.startsWith('/t/') ? answers[request.url.charAt(3)] : undefined;
    if (!found) return void response.writeHead(404).end();
    response.writeHead(found.status, found.headers).end(found.body);
  }).listen(Number(process.env.PORT), '127.0.0.1');
  process.on('SIGTERM', () => process.exit(0));
}
