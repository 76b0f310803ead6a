/**
 * Housekeeping that runs in the worker at start and then every `everyMs` (the stale-import sweep,
 * stuck-send recovery...). A run still going when the next is due is not doubled; a failed run is
 * logged and the next one tries again. Closing waits for the run in progress.
 */
import type { Logger } from '../logger.js';
import type { Consumer } from '../queue/message-queue.js';

export function periodic(name: string, everyMs: number, run: () => Promise<unknown>, logger: Logger): Consumer {
  let running: Promise<void> | undefined;
  const tick = () => {
    running ??= run()
      .then(
        () => undefined,
        (err: unknown) => logger.warn({ err, task: name }, `${name} failed; will run again`),
      )
      .finally(() => {
        running = undefined;
      });
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    close: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
