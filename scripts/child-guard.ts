// The guard of a script's children: started by scripts/emulator.ts next to the first child a script
// spawns, in a process group of its own, reading what to guard from a pipe to the script:
//   group <pid>   a child's process group to end when the script is gone
//   done <pid>    that group has already ended
//   dir <path>    a temporary folder to remove when the script is gone
// The pipe closes when the script ends, however it ends (a clean exit, a crash, kill -9: the kernel closes
// its end), and then the guard ends every group still listed (SIGTERM, SIGKILL after a grace) and removes
// the folders. A guard is needed because a detached child outlives a parent killed by SIGKILL, which
// runs no exit hook, and keeps holding its port.
import { rmSync } from 'node:fs';

const GRACE_MS = 5_000;
const groups = new Set<number>();
const dirs = new Set<string>();

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(-pid, signal);
  } catch {
    /* already gone */
  }
}

async function endAll() {
  const live = [...groups].filter(groupAlive);
  for (const pid of live) signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + GRACE_MS;
  while (live.some(groupAlive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
  for (const pid of live) if (groupAlive(pid)) signalGroup(pid, 'SIGKILL');
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

let partial = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  const lines = (partial + chunk).split('\n');
  partial = lines.pop() ?? '';
  for (const line of lines) {
    const [word, ...rest] = line.split(' ');
    const arg = rest.join(' ');
    if (word === 'group' && Number(arg) > 0) groups.add(Number(arg));
    else if (word === 'done') groups.delete(Number(arg));
    else if (word === 'dir' && arg) dirs.add(arg);
  }
});
process.stdin.on('end', () => void endAll());
process.stdin.on('error', () => void endAll());
// Ctrl-C in a terminal reaches the script, which stops its children itself; the guard waits for the pipe.
process.on('SIGINT', () => undefined);
process.on('SIGHUP', () => undefined);
