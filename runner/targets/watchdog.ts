/**
 * The watchdog process (runner/targets/watch.ts): reads lines `+PGID START` (a target group
 * started; START its leader's start time, `-` when unknown) and `-PGID` (stopped) on stdin; when
 * stdin ends — the wirecost process that started it exited, in any way — SIGKILLs every group
 * still listed whose leader is not another process by now, and exits 0. Ignores SIGINT and SIGHUP
 * (a terminal's signals are for wirecost, which stops its targets itself).
 *
 * Run: `node dist/runner/targets/watchdog.js` (started by watch.ts only).
 */
import { killGroupIfSame } from "./watch.js";

/** Target groups still running: leader pid → its start time (undefined when unknown). */
const groups = new Map<number, string | undefined>();
let pending = "";

process.on("SIGINT", () => {});
process.on("SIGHUP", () => {});

process.stdin.setEncoding("utf8");
process.stdin.on("data", (text: string) => {
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const m = /^([+-])(\d+)(?: (\S+))?$/.exec(line);
    if (!m) continue;
    const pgid = Number(m[2]);
    if (m[1] === "+") groups.set(pgid, m[3] === undefined || m[3] === "-" ? undefined : m[3]);
    else groups.delete(pgid);
  }
});
const end = (): void => {
  for (const [pgid, start] of groups) killGroupIfSame(pgid, start);
  process.exit(0);
};
process.stdin.on("end", end);
process.stdin.on("close", end);
process.stdin.on("error", end);
