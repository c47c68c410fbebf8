/**
 * The `mcp-per-call-overhead` report: the same function called in-process and through MCP
 * servers, from a per-call results folder (`percall.tsv` and its companions, written by `wirecost
 * run matrices/mcp-per-call-overhead.yaml`; read by generators/results/percall.ts). Every figure
 * comes from those files; derived figures (ratios, spreads, turn shares, the payload fit) are
 * arithmetic over them, done here.
 */
import { mdCell, mdCode } from "../escape.js";
import { formatFixed } from "../format.js";
import { reproduceCommand, shellQuote } from "../reproduce.js";
import { renderMarkdownTemplate } from "../templates.js";
import type { PercallResults, TurnShareInput } from "../results/percall.js";

export type { TurnShareInput } from "../results/percall.js";

/** Page id (file stem under the site folder). */
export const PERCALL_PAGE_ID = "mcp-per-call-overhead";

/** One computed turn-share row; times in milliseconds, shares as fractions 0…1. */
export interface TurnShareRow extends TurnShareInput {
  directMs: number;
  overMcpMs: number;
  /** overMcpMs − directMs: the boundary's cost. */
  overheadMs: number;
  /** Elapsed with the boundary: turns × turn length + overMcpMs. */
  elapsedMs: number;
  /** overheadMs / elapsedMs. */
  overheadShare: number;
}

/**
 * The turn-share arithmetic: each row's calls × the two medians, against `turns` turns of
 * `turnSeconds` each. Units: medians in microseconds in, milliseconds out.
 * @throws RangeError when a median or the turn length is negative or not finite
 */
export function turnShare(rows: readonly TurnShareInput[], directP50Us: number, overMcpP50Us: number, turnSeconds: number): TurnShareRow[] {
  for (const [name, v] of [["directP50Us", directP50Us], ["overMcpP50Us", overMcpP50Us], ["turnSeconds", turnSeconds]] as const) {
    if (!Number.isFinite(v) || v < 0) throw new RangeError(`${name} ${v} is not a finite number >= 0`);
  }
  return rows.map((r) => {
    const directMs = (r.calls * directP50Us) / 1000;
    const overMcpMs = (r.calls * overMcpP50Us) / 1000;
    const overheadMs = overMcpMs - directMs;
    const elapsedMs = r.turns * turnSeconds * 1000 + overMcpMs;
    return { ...r, directMs, overMcpMs, overheadMs, elapsedMs, overheadShare: elapsedMs > 0 ? overheadMs / elapsedMs : 0 };
  });
}

/**
 * Per-message against per-byte cost from a payload sweep: the p50 at the smallest result stands
 * for the per-message cost, and the slope between the smallest and the largest result for the
 * per-byte cost (a two-point estimate, robust to a noisy middle). Units: µs, and µs per KiB.
 * @throws RangeError when the sweep has fewer than two sizes
 */
export function payloadCost(points: ReadonlyArray<{ resultBytes: number; p50Us: number }>): { perMessageUs: number; perKbUs: number } {
  if (points.length < 2) throw new RangeError(`a payload sweep needs two sizes, got ${points.length}`);
  const sorted = [...points].sort((a, b) => a.resultBytes - b.resultBytes);
  const lo = sorted[0]!;
  const hi = sorted[sorted.length - 1]!;
  return { perMessageUs: lo.p50Us, perKbUs: ((hi.p50Us - lo.p50Us) / (hi.resultBytes - lo.resultBytes)) * 1024 };
}

const f1 = (n: number): string => formatFixed(n, 1);
const f2 = (n: number): string => formatFixed(n, 2);
const ms = (us: number): string => formatFixed(us / 1000, 3);
const pct = (x: number): string => `${formatFixed(x * 100, 2)}%`;

/** A markdown table; cells must already be markdown-safe. */
function table(header: string[], align: Array<"l" | "r">, rows: string[][]): string {
  const sep = align.map((a) => (a === "r" ? "---:" : ":---"));
  return [header, sep, ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/**
 * Build the page's markdown from a per-call results folder's contents. Deterministic.
 * @param resultsDir the results folder the page is rendered from, as `render` names it (printed in
 *   the whole-report run and render commands)
 */
export function percallMarkdown(r: PercallResults, resultsDir: string): string {
  const direct = r.rows.find((p) => p.kind === "direct")!;
  const mcp = r.rows.filter((p) => p.kind === "mcp");
  const latency = table(
    ["path", "configuration", "SDK", "p50 [ms]", "p95 [ms]", "spread p95 − p50 [ms]", "p50 ratio ×direct", "p95 ratio ×direct", "trials p50 [ms]"],
    ["l", "l", "l", "r", "r", "r", "r", "r", "l"],
    r.rows.map((p) => [
      mdCell(p.label),
      mdCode(p.config),
      mdCell(p.packageVersion || "—"),
      ms(p.p50Us),
      ms(p.p95Us),
      ms(p.spreadUs),
      p.kind === "direct" ? "1.0" : f1(p.p50Us / direct.p50Us),
      p.kind === "direct" ? "1.0" : f1(p.p95Us / direct.p95Us),
      mdCell(p.trialP50Us.map((t) => ms(t)).join(", ")),
    ]),
  );
  const setup = table(
    ["path", "ready [ms]", "session open [ms]", "tools/list answered [ms]", "first call answered [ms]", "samples"],
    ["l", "r", "r", "r", "r", "r"],
    mcp.map((p) => (p.setup ? [mdCell(p.label), f1(p.setup.readyMs), f1(p.setup.openMs), f1(p.setup.listedMs), f1(p.setup.firstCallMs), String(p.setup.samples)] : [mdCell(p.label), "—", "—", "—", "—", "0"])),
  );
  const n = r.settings.loopCalls;
  const loops = table(
    ["path", `${n} sequential [ms]`, `${n} concurrent [ms]`, `1 batch of ${n} [ms]`, "concurrent ÷ sequential", "batch ÷ sequential"],
    ["l", "r", "r", "r", "r", "r"],
    r.rows.map((p) => [mdCell(p.label), f1(p.loops.sequentialMs), f1(p.loops.concurrentMs), f1(p.loops.batchMs), f2(p.loops.concurrentMs / p.loops.sequentialMs), f2(p.loops.batchMs / p.loops.sequentialMs)]),
  );
  const limits = r.settings.payloadLimits;
  const payload = table(
    ["path", ...limits.map((l) => `limit ${l}: ${f1((direct.payload.find((x) => x.limit === l)?.resultBytes ?? 0) / 1024)} KB p50 [ms]`), "smallest-size p50 (≈ per message) [ms]", "per KB [µs]"],
    ["l", ...limits.map(() => "r" as const), "r", "r"],
    r.rows.map((p) => {
      const cost = payloadCost(p.payload);
      return [mdCell(p.label), ...limits.map((l) => ms(p.payload.find((x) => x.limit === l)?.p50Us ?? NaN)), ms(cost.perMessageUs), f1(cost.perKbUs)];
    }),
  );
  const turnSeconds = r.assumptions.agentTurnSeconds;
  const shares = mcp.map((p) => ({ p, rows: turnShare(r.assumptions.turnShareRows, direct.p50Us, p.p50Us, turnSeconds) }));
  const turnTable = table(
    ["path", "calls", "turns", "direct [ms]", "over MCP [ms]", "overhead [ms]", "overhead share of elapsed"],
    ["l", "l", "r", "r", "r", "r", "r"],
    shares.flatMap(({ p, rows }) => rows.map((t) => [mdCell(p.label), mdCell(t.label), String(t.turns), f1(t.directMs), f1(t.overMcpMs), f1(t.overheadMs), pct(t.overheadShare)])),
  );
  const reproduce = table(
    ["configuration", "command that re-measures the row and prints it"],
    ["l", "l"],
    r.rows.map((p) => [mdCode(p.config), mdCode(reproduceCommand(p.config, r.matrix, "percall.tsv"))]),
  );
  const command = `npx wirecost run ${shellQuote(r.matrix)} --results ${shellQuote(resultsDir)}`;
  const renderCommand = `npx wirecost render --results ${shellQuote(resultsDir)}`;
  const runs = r.runs.map((env) => ({
    command: mdCode(env.command),
    configurations: env.configurations.length === r.rows.length ? "every configuration" : env.configurations.map((c) => mdCode(c)).join(", "),
    node: mdCell(env.node),
    os: mdCell(`${env.os} ${env.kernel}`),
    cpu: mdCell(`${env.cpuModel}, ${env.cores} cores`),
    load: mdCell(`${env.loadavgStart.map((x) => f2(x)).join(" / ")} at start, ${env.loadavgEnd.map((x) => f2(x)).join(" / ")} at end (1/5/15-minute load averages)`),
    window: mdCell(`${env.startedAt} – ${env.endedAt}`),
    git: mdCell(`${env.git.commit}${env.git.dirty ? " (uncommitted changes)" : ""}`),
  }));
  return renderMarkdownTemplate("mcp-per-call-overhead.md.njk", {
    title: mdCell(r.title),
    settings: {
      calls: String(r.settings.calls),
      trials: String(r.settings.trials),
      warmup: String(r.settings.warmupCalls),
      query: mdCode(r.settings.query),
      limit: String(r.settings.limit),
      resultKb: f1(r.settings.resultBytes / 1024),
      loopCalls: String(n),
      payloadCalls: String(r.settings.payloadCalls),
      percentileMethod: mdCell(r.settings.percentileMethod),
    },
    latency,
    setup,
    loops,
    payload,
    turnTable,
    turnSeconds: formatFixed(turnSeconds, 1),
    assumptionNote: mdCell(r.assumptions.note),
    command: mdCode(command),
    renderCommand: mdCode(renderCommand),
    reproduce,
    matrix: mdCode(r.matrix),
    runs,
  });
}
