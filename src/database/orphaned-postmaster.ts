import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** /proc/<pid>/stat is "pid (comm) state ppid …"; comm may hold spaces and parentheses. */
function parentPid(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined; // gone, or not Linux
  }
}

function commandName(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A server killed without a chance to stop its embedded PostgreSQL (kill -9, OOM) leaves the
 * postmaster running, reparented away from Node, and the data directory locked. Such an orphan is
 * stopped (fast shutdown) so that this start can proceed. A postmaster whose parent is a Node
 * process belongs to a live server or CLI and is left alone (the start then fails, saying so).
 * Linux only (it reads /proc); elsewhere nothing is done.
 */
export async function stopOrphanedPostmaster(dataDir: string, log: (line: string) => void): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return; // not running
  }
  if (!Number.isInteger(pid) || pid <= 0 || !commandName(pid).startsWith('postgres')) return;
  const parent = parentPid(pid);
  if (parent === undefined || commandName(parent).startsWith('node')) return;
  log(`Stopping an orphaned PostgreSQL (pid ${pid}) left running on ${dataDir} by a server that did not shut down`);
  process.kill(pid, 'SIGINT');
  const deadline = Date.now() + 15_000;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
