// Child processes of a benchmark: each one ends with the benchmark (support/exit-with-parent.mjs),
// and the resident-memory figures the benchmarks print.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';

const EXIT_WITH_PARENT = new URL('./exit-with-parent.mjs', import.meta.url).href;
const PIPE_FD = 3;

/**
 * `node <args>` on this Node (process.execPath), ended when this process ends however it ends:
 * the child watches a pipe from here (fd 3) and stops itself when the pipe closes.
 */
export function spawnNode(args, { env = process.env, stdio = ['ignore', 'inherit', 'inherit'], ...options } = {}) {
  const child = spawn(process.execPath, ['--import', EXIT_WITH_PARENT, ...args], {
    ...options,
    env: { ...env, BENCH_PARENT_PIPE_FD: String(PIPE_FD) },
    stdio: [...stdio, 'pipe'],
  });
  // Neither end may keep this process alive or fail it: the pipe only carries our existence.
  const pipe = child.stdio[PIPE_FD];
  pipe.on('error', () => {});
  pipe.unref();
  return child;
}

/** Sends SIGTERM to the still running `children` and resolves once all have exited. */
export async function stopAll(children) {
  const running = children.filter((child) => child.exitCode === null && child.signalCode === null);
  for (const child of running) child.kill('SIGTERM');
  await Promise.all(running.map((child) => new Promise((done) => child.once('exit', done))));
}

/**
 * The process and its descendants, by /proc's children lists: the HTTP entry runs several processes
 * under a primary (api/src/http/cluster.ts), and what the benchmarks measure of "the API" is all of them.
 */
export function processTree(pid) {
  const tree = [];
  const visit = (id) => {
    tree.push(id);
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${id}/task`);
    } catch {
      return;
    }
    for (const task of tasks) {
      let children = '';
      try {
        children = readFileSync(`/proc/${id}/task/${task}/children`, 'utf8');
      } catch {
        continue;
      }
      for (const child of children.trim().split(/\s+/).filter(Boolean)) visit(Number(child));
    }
  };
  visit(pid);
  return tree;
}

function ownPeakRssMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return undefined;
  }
}

/**
 * Peak resident set (VmHWM) in MB of the process, or of the largest of its descendants: the
 * budgets are per process. Undefined once it is gone.
 */
export function peakRssMb(pid) {
  const peaks = processTree(pid)
    .map(ownPeakRssMb)
    .filter((mb) => mb !== undefined);
  return peaks.length > 0 ? Math.max(...peaks) : undefined;
}

/** Resets VmHWM, so the next peak measures one phase only (Linux: clear_refs 5). */
export function resetPeakRss(pid) {
  for (const id of processTree(pid)) {
    try {
      writeFileSync(`/proc/${id}/clear_refs`, '5');
    } catch {
      // Not allowed here: the peak then covers the whole run.
    }
  }
}

/** CPU seconds (user + system) the process has used so far, by /proc; undefined once it is gone. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The fields after the command name (which may hold spaces) start after its closing parenthesis.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
