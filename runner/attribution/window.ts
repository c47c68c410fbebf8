/**
 * The profile window of a process that samples itself (README "Profile windows"): the target runs
 * with `WIRECOST_PROFILE_OUT=<absolute path>`; SIGUSR1 opens the window, SIGUSR2 closes it and the
 * target writes folded stacks to `<path>.tmp`, renamed to `<path>` (Go: targets/common/profilewindow,
 * Rust: targets/common/profile-window).
 */
import { readFileSync, statSync } from "node:fs";

/** Open the window of process `pid` (SIGUSR1). @throws Error when the process is gone */
export function openProfileWindow(pid: number): void {
  process.kill(pid, "SIGUSR1");
}

/** Identity of the file at `path` now (inode and modification time), "" when there is none. */
function fileVersion(path: string): string {
  try {
    const s = statSync(path, { bigint: true });
    return `${s.ino}:${s.mtimeNs}`;
  } catch {
    return "";
  }
}

/**
 * Close the window of process `pid` (SIGUSR2) and wait, polling every 10 ms, for a new file at
 * `path` (one written after this call: its inode or modification time differs from the file there
 * before, if any); resolves with its text.
 * @throws Error when the process is gone, or no new file appears within `timeoutMs`
 */
export async function closeProfileWindow(pid: number, path: string, timeoutMs = 10_000): Promise<string> {
  const before = fileVersion(path);
  process.kill(pid, "SIGUSR2");
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = fileVersion(path);
    if (now !== "" && now !== before) return readFileSync(path, "utf8");
    if (Date.now() > deadline) throw new Error(`process ${pid} wrote no profile to ${path} within ${timeoutMs} ms of SIGUSR2`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
