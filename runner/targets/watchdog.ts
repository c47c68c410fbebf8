/**
 * The watchdog process (runner/targets/watch.ts): reads lines `+PGID START PIPES TOKEN` (a target
 * group started; START its leader's start time, `-` when unknown; PIPES its stdio pipes,
 * comma-separated, `-` for none; TOKEN its WIRECOST_TARGET_TOKEN, `-` for none) and `-PGID`
 * (stopped) on stdin; when stdin ends — the wirecost process that started it exited, in any way —
 * SIGKILLs every group still listed whose leader is not another process by now, every process
 * holding one of their pipes and every process carrying one of their tokens
 * (runner/targets/strays.ts), and exits 0. Ignores SIGINT and SIGHUP
 * (a terminal's signals are for wirecost, which stops its targets itself).
 *
 * Run: `node dist/runner/targets/watchdog.js` (started by watch.ts only).
 */
import { STDIO_PIPE, TARGET_TOKEN, killEach, pipeHolders, tokenHolders } from "./strays.js";
import { killGroupIfSame } from "./watch.js";

/** Target groups still running: leader pid → its start time (undefined when unknown), stdio pipes and token. */
const groups = new Map<number, { start: string | undefined; pipes: string[]; token: string | undefined }>();
let pending = "";

process.on("SIGINT", () => {});
process.on("SIGHUP", () => {});

process.stdin.setEncoding("utf8");
process.stdin.on("data", (text: string) => {
  pending += text;
  const lines = pending.split("\n");
  pending = lines.pop() ?? "";
  for (const line of lines) {
    const m = /^([+-])(\d+)(?: (\S+))?(?: (\S+))?(?: (\S+))?$/.exec(line);
    if (!m) continue;
    const pgid = Number(m[2]);
    const pipes = m[4] === undefined || m[4] === "-" ? [] : m[4].split(",").filter((p) => STDIO_PIPE.test(p));
    const token = m[5] !== undefined && TARGET_TOKEN.test(m[5]) ? m[5] : undefined;
    if (m[1] === "+") groups.set(pgid, { start: m[3] === undefined || m[3] === "-" ? undefined : m[3], pipes, token });
    else groups.delete(pgid);
  }
});
const end = (): void => {
  for (const [pgid, { start }] of groups) killGroupIfSame(pgid, start);
  killEach(pipeHolders([...groups.values()].flatMap((g) => g.pipes)));
  killEach(tokenHolders([...groups.values()].flatMap((g) => (g.token ? [g.token] : []))));
  process.exit(0);
};
process.stdin.on("end", end);
process.stdin.on("close", end);
process.stdin.on("error", end);
