/**
 * What the Go and Rust profile windows cost (README "Profile windows"): the known-cost targets
 * (targets/known-cost/matrix.yaml) and the Go and Rust MCP SDK targets (matrix.yaml), built from
 * their locks, over stdio, each in one process, time per call with the window closed and open,
 * alternated round by round (closed, open, closed, open …) so drift lands on both. The known-cost
 * targets make tools/call, the SDK targets tools/list.
 *
 *   node dist/bench/profile-overhead.js [--calls N] [--rounds R] [--costs SPEC] [--hz HZ]
 *
 * --calls: calls per window (default 2000); --rounds: closed/open pairs (default 5); --costs:
 * WIRECOST_KNOWN_COSTS for the known-cost targets (default all 0: their spins stop at a fixed thread
 * CPU time, so a spin would absorb the sampler's own time on its thread and hide it); --hz:
 * WIRECOST_PROFILE_HZ (default: the targets' 997). Prints one TSV row per target, side by side: the median over rounds of the
 * wall time per call (µs, measured in this process) and of the target's CPU per call (µs,
 * /proc/<pid>/task/*\/schedstat), closed and open, the ratios open / closed, and the samples the
 * open windows took per CPU-second of the target (the rate the kernel actually delivered).
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "simple-statistics";

import { profileWindow } from "../runner/attribution/samplers.js";
import { ensureBuilt } from "../runner/build/build.js";
import { PipelinedStdioWire } from "../runner/drivers/mcp/pipelined.js";
import { McpSession } from "../runner/drivers/mcp/session.js";
import { loadMatrix } from "../runner/matrix/parse.js";
import { readSchedstatNs } from "../runner/measure/cpu.js";
import { spawnTarget, stopTarget } from "../runner/percall/client.js";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
/** Matrix file, target, and the call each window repeats. */
const TARGETS: [string, string, string, Record<string, unknown>][] = [
  ["targets/known-cost/matrix.yaml", "known-cost-go", "tools/call", { name: "search_tickets", arguments: { query: "refund", limit: 10 } }],
  ["targets/known-cost/matrix.yaml", "known-cost-rust", "tools/call", { name: "search_tickets", arguments: { query: "refund", limit: 10 } }],
  ["matrix.yaml", "mcp-go", "tools/list", {}],
  ["matrix.yaml", "mcp-rust", "tools/list", {}],
];

/** One window's figures: wall and target CPU per call (µs), and samples (open windows only). */
interface Window {
  wallUs: number;
  cpuUs: number;
  samples?: number;
  cpuNs: number;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      calls: { type: "string", default: "2000" },
      rounds: { type: "string", default: "5" },
      costs: { type: "string", default: "parse_and_validate=0,do_work=0,build_result=0" },
      hz: { type: "string" },
    },
  });
  const calls = Number(values.calls);
  const rounds = Number(values.rounds);
  const rows: string[] = [
    ["target", "calls", "rounds", "wall_closed_us", "wall_open_us", "wall_ratio", "cpu_closed_us", "cpu_open_us", "cpu_ratio", "samples_per_cpu_s"].join("\t"),
  ];
  for (const [file, name, method, params] of TARGETS) {
    const matrix = loadMatrix(join(root, file));
    await ensureBuilt(matrix, [name]);
    const out = join(mkdtempSync(join(tmpdir(), "wirecost-overhead-")), "profile.folded");
    const command = matrix.targets[name]!.commands.stdio!;
    const env: Record<string, string> = { ...command.env, WIRECOST_PROFILE_OUT: out, WIRECOST_KNOWN_COSTS: values.costs! };
    if (values.hz) env.WIRECOST_PROFILE_HZ = values.hz;
    const spec = {
      command: { ...command, env },
      values: {},
      transport: "stdio" as const,
      revision: "2025-11-25",
      cwd: dirname(matrix.file),
      timeoutMs: 30_000,
    };
    const { proc, exited } = await spawnTarget(spec, 0);
    const wire = new PipelinedStdioWire(proc.child.stdin!, proc.child.stdout!, spec.timeoutMs);
    void exited.then((e) => wire.failAll(e));
    const session = new McpSession(wire, spec.revision);
    const call = () => session.request(method, params);
    /** Time `calls` calls: wall (this process) and the target's CPU. */
    const window = async (): Promise<Window> => {
      const cpu0 = readSchedstatNs(proc.pid);
      const t0 = process.hrtime.bigint();
      for (let i = 0; i < calls; i++) await call();
      const wallNs = Number(process.hrtime.bigint() - t0);
      const cpuNs = readSchedstatNs(proc.pid) - cpu0;
      return { wallUs: wallNs / 1000 / calls, cpuUs: cpuNs / 1000 / calls, cpuNs };
    };
    const closed: Window[] = [];
    const open: Window[] = [];
    try {
      await session.open();
      for (let i = 0; i < 50; i++) await call();
      for (let r = 0; r < rounds; r++) {
        closed.push(await window());
        const { profile, result: w } = await profileWindow(proc.pid, out, async () => {
          await new Promise((res) => setTimeout(res, 50));
          return window();
        });
        w.samples = profile.stacks.reduce((n, s) => n + s.count, 0);
        open.push(w);
      }
    } catch (e) {
      throw new Error(`${name}: ${e instanceof Error ? e.message : String(e)}`);
    } finally {
      await stopTarget(proc, "stdio");
    }
    const med = (ws: Window[], f: (w: Window) => number) => median(ws.map(f));
    const [wc, wo, cc, co] = [med(closed, (w) => w.wallUs), med(open, (w) => w.wallUs), med(closed, (w) => w.cpuUs), med(open, (w) => w.cpuUs)];
    const rate = median(open.map((w) => w.samples! / (w.cpuNs / 1e9)));
    rows.push(
      [name, calls, rounds, wc.toFixed(0), wo.toFixed(0), (wo / wc).toFixed(3), cc.toFixed(0), co.toFixed(0), (co / cc).toFixed(3), rate.toFixed(0)].join("\t"),
    );
  }
  console.log(rows.join("\n"));
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
