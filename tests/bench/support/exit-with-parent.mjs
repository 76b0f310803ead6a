// Preloaded (`node --import`) into every process a benchmark starts. The parent passes a pipe as fd 3
// and never writes to it: the pipe closes when the parent is gone, however it went (SIGKILL and
// crashes included). This process then stops as if the parent had stopped it (SIGTERM, so the API's
// and the worker's graceful shutdown runs), and exits anyway if that takes too long.
import { Socket } from 'node:net';
import { setTimeout } from 'node:timers';

const fd = Number(process.env.BENCH_PARENT_PIPE_FD);
if (Number.isInteger(fd) && fd > 2) {
  // Seen by this process only: what it starts in turn gets no such pipe.
  delete process.env.BENCH_PARENT_PIPE_FD;
  const parent = new Socket({ fd, readable: true, writable: false });
  parent.on('error', () => {});
  parent.once('close', () => {
    process.kill(process.pid, 'SIGTERM');
    setTimeout(() => process.exit(1), 30_000).unref();
  });
  parent.resume();
  // The pipe alone never keeps this process alive.
  parent.unref();
}
