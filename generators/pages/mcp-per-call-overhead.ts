/**
 * The `mcp-per-call-overhead` report: the same function called in-process and through MCP
 * servers, from a per-call results folder (`percall.tsv` and its companions, written by `wirecost
 * run matrices/mcp-per-call-overhead.yaml`; read by generators/results/percall.ts). Every figure
 * comes from those files; derived figures (ratios, spreads, turn shares, the payload fit, the
 * harness differences) are arithmetic over them, done here. Rows timed by a harness in another
 * language (README "Per-call harnesses in other languages") sit beside wirecost's own, labelled
 * with their runtime and client; each row's ratios and turn shares are against the in-process
 * row of whoever measured it (wirecost's direct path, or the harness's own in-process row in the
 * same runtime).
 */
import { definitionItems } from "../sections/definitions.js";
import { percallAnswer, trialIntervalText } from "../sections/percall-answer.js";
import type { ChartView } from "../sections/wire-charts.js";
import type { StageSectionView } from "../sections/stage-tables.js";
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatFixed } from "../format.js";
import { reproduceCommand } from "../reproduce.js";
import { shellQuote } from "../../format/shell.js";
import { renderMarkdownTemplate } from "../templates.js";
import { buildsTable } from "../sections/builds.js";
import type { FailedPath, PercallResults, PercallRow, TurnShareInput } from "../results/percall.js";
import { RESULTS_FILES } from "../../format/layout.js";

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
  for (const [name, v] of [
    ["directP50Us", directP50Us],
    ["overMcpP50Us", overMcpP50Us],
    ["turnSeconds", turnSeconds],
  ] as const) {
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

/** Who timed a row, for the page: `wirecost (node v20.11.1)` or `harness in python 3.11.7, client mcp 2.2.0`. */
export function measuredByText(p: Pick<PercallRow, "measuredBy" | "runtime" | "client">): string {
  if (p.measuredBy === "wirecost") return p.runtime ? `wirecost (${p.runtime})` : "wirecost";
  return `harness in ${p.runtime || "an unrecorded runtime"}${p.client ? `, client ${p.client}` : ""}`;
}

/**
 * The in-process row a row is compared with: wirecost's direct row for wirecost's rows; for a
 * harness row, the harness's in-process row in the same runtime (its name, any version), or
 * undefined when there is none.
 */
export function baselineOf(p: PercallRow, rows: readonly PercallRow[]): PercallRow | undefined {
  if (p.measuredBy === "wirecost") return rows.find((r) => r.kind === "direct" && r.measuredBy === "wirecost");
  const name = (r: PercallRow): string => r.runtime.split(" ")[0] ?? "";
  return rows.find((r) => r.kind === "direct" && r.measuredBy === "harness" && name(r) === name(p));
}

const NOT_MEASURED = "not measured";

/** The measuring process's CPU per call, µs, for a cell: one decimal, or "not measured". */
const cpuCell = (p: Pick<PercallRow, "clientCpuPerCallUs">): string => (p.clientCpuPerCallUs === null ? NOT_MEASURED : f1(p.clientCpuPerCallUs));

/**
 * A row timed by wirecost through the target's own SDK client (its `client` names the SDK
 * package), as against wirecost's thin client (`client` is `wirecost`).
 */
export function isSdkClientRow(p: PercallRow): boolean {
  return p.measuredBy === "wirecost" && p.kind === "mcp" && p.client !== "" && p.client !== "wirecost";
}

/**
 * Each SDK-client row with the thin-client row of the same target, transport and revision (both
 * timed by wirecost in the same run's process); SDK-client rows without one are left out.
 */
export function clientPairs(rows: readonly PercallRow[]): Array<{ thin: PercallRow; sdk: PercallRow }> {
  return rows.filter(isSdkClientRow).flatMap((sdk) => {
    const thin = rows.find(
      (r) => r.measuredBy === "wirecost" && r.client === "wirecost" && r.target === sdk.target && r.transport === sdk.transport && r.revision === sdk.revision,
    );
    return thin ? [{ thin, sdk }] : [];
  });
}

/**
 * A cell of a client declared under `clients:` driving another server (its harness against the
 * configuration's target, so the row's `server` is its `target`): it times the calls only, for the
 * grid; that client's loops and payload sweep are in its harness rows against its own server.
 */
export function isClientCell(p: Pick<PercallRow, "measuredBy" | "server" | "target">): boolean {
  return p.measuredBy === "harness" && p.server !== "" && p.server === p.target;
}

/** A client column of the grid: wirecost's thin client, a TypeScript SDK client in wirecost's process, or a harness's SDK client. */
const gridClientKey = (r: Pick<PercallRow, "measuredBy" | "client">): string => `${r.measuredBy}\u0000${r.client}`;

/** A grid line: server, transport, revision. */
const gridLineKey = (r: Pick<PercallRow, "server" | "transport" | "revision">): string => `${r.server}\u0000${r.transport}\u0000${r.revision}`;

/**
 * Every client against every server: one line per server (the row's `server`), transport and
 * revision, one column per client — wirecost's thin client first, then the TypeScript SDK clients
 * timed in wirecost's process, then the SDK clients timed by harnesses in their own language (the
 * Python, Go and Rust SDK clients: against their own server, or against another one as a client
 * declared under `clients:`) — the p50 per call in ms. A combination without an ok row reads
 * "failed" when its path failed (listed on the page with the reason) and "not measured" when the
 * results hold no such path (the matrix leaves it out; `wirecost expand --all` gives each reason):
 * never a zero. Undefined when only one client ran.
 */
export function clientGrid(rows: readonly PercallRow[], failed: readonly FailedPath[] = []): string | undefined {
  const timed = rows.filter((r) => r.kind === "mcp" && r.server !== "" && r.client !== "");
  const order = (k: string): number => (k === gridClientKey({ measuredBy: "wirecost", client: "wirecost" }) ? 0 : k.startsWith("wirecost") ? 1 : 2);
  const clients = [...new Set(timed.map(gridClientKey))].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  if (clients.length < 2) return undefined;
  const header = (k: string): string => {
    const r = timed.find((x) => gridClientKey(x) === k)!;
    if (r.measuredBy === "wirecost") return r.client === "wirecost" ? "thin client p50 [ms]" : `${mdCell(r.client)} p50 [ms]`;
    return `${mdCell(r.client)} (harness, ${mdCell(r.runtime.split(" ")[0] ?? "")}) p50 [ms]`;
  };
  const lines = [...new Set(timed.map(gridLineKey))];
  return table(
    ["server, transport, revision", ...clients.map(header)],
    ["l", ...clients.map((): "r" => "r")],
    lines.map((k) => {
      const at = timed.filter((r) => gridLineKey(r) === k);
      return [
        lineName(at),
        ...clients.map((c) => {
          const r = at.find((x) => gridClientKey(x) === c);
          if (r) return ms(r.p50Us);
          return failed.some((f) => gridLineKey(f) === k && gridClientKey(f) === c) ? "failed" : "not measured";
        }),
      ];
    }),
  );
}

/**
 * A grid line's name: the thin client's label, else a label of a row whose target is the server
 * cut after its transport and revision, else `<server>, <transport>, <revision>`.
 */
function lineName(at: readonly PercallRow[]): string {
  const thin = at.find((r) => r.measuredBy === "wirecost" && r.client === "wirecost");
  if (thin) return mdCell(thin.label);
  const r = at[0]!;
  const tail = `, ${r.transport}, ${r.revision}`;
  const own = at.find((x) => x.target === x.server && x.label.includes(tail));
  return mdCell(own ? own.label.slice(0, own.label.indexOf(tail) + tail.length) : `${r.server}${tail}`);
}

/** A markdown table; cells must already be markdown-safe. */
function table(header: string[], align: Array<"l" | "r">, rows: string[][]): string {
  const sep = align.map((a) => (a === "r" ? "---:" : ":---"));
  return [header, sep, ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/** The latency table: every path's percentiles, spread, CPU per call, ratios to its direct call and its trials. */
function latencyTable(r: PercallResults): string {
  const ratio = (p: PercallRow, k: "p50Us" | "p95Us"): string => {
    const b = baselineOf(p, r.rows);
    return p.kind === "direct" ? "1.0" : b ? f1(p[k] / b[k]) : "—";
  };
  return table(
    [
      "path",
      "configuration",
      "measured by",
      "server SDK",
      "p50 [ms]",
      "p95 [ms]",
      "spread p95 − p50 [ms]",
      "measuring process CPU per call [µs]",
      "p50 ratio × its direct",
      "p95 ratio × its direct",
      "trials p50 [ms]",
      "p50 interval over trials [ms]",
    ],
    ["l", "l", "l", "l", "r", "r", "r", "r", "r", "r", "l", "r"],
    r.rows.map((p) => [
      mdCell(p.label),
      mdCode(p.config),
      mdCell(measuredByText(p)),
      mdCell(p.packageVersion || "—"),
      ms(p.p50Us),
      ms(p.p95Us),
      ms(p.spreadUs),
      cpuCell(p),
      ratio(p, "p50Us"),
      ratio(p, "p95Us"),
      mdCell(p.trialP50Us.map((t) => ms(t)).join(", ")),
      mdCell(trialIntervalText(p.trialP50Us) || "—"),
    ]),
  );
}

/** The write-up's first table, per harness runtime: its in-process row, each of its rows over a transport, and the differences. */
function harnessTables(r: PercallResults): Array<{ runtime: string; mismatch: string; table: string }> {
  return r.rows
    .filter((p) => p.measuredBy === "harness" && p.kind === "direct")
    .map((base) => {
      // Its own SDK paths only: a harness driving another target's server (a client declared under clients:, server = target) is in the grid.
      const over = r.rows.filter((p) => p.measuredBy === "harness" && p.kind === "mcp" && p.server !== p.target && baselineOf(p, r.rows) === base);
      const runtimes = [...new Set([base, ...over].map((p) => p.runtime))];
      return {
        runtime: mdCell(base.runtime || "an unrecorded runtime"),
        mismatch: runtimes.length > 1 ? mdCell(runtimes.join(" and ")) : "",
        table: table(
          ["path", "measured by", "p50 [ms]", "p95 [ms]", "spread p95 − p50 [ms]"],
          ["l", "l", "r", "r", "r"],
          [
            ...[base, ...over].map((p) => [mdCell(p.label), mdCell(measuredByText(p)), ms(p.p50Us), ms(p.p95Us), ms(p.spreadUs)]),
            ...over.map((p) => [
              mdCell(`difference: ${p.label} − ${base.label}`),
              "",
              ms(p.p50Us - base.p50Us),
              ms(p.p95Us - base.p95Us),
              ms(p.spreadUs - base.spreadUs),
            ]),
          ],
        ),
      };
    });
}

/** Thin client against the target's own SDK client: the client side's share of the boundary (null without such pairs). */
function clientsTable(r: PercallResults): string | null {
  const pairs = clientPairs(r.rows);
  if (!pairs.length) return null;
  const cpuDiff = (a: PercallRow, b: PercallRow): string =>
    a.clientCpuPerCallUs === null || b.clientCpuPerCallUs === null ? NOT_MEASURED : f1(a.clientCpuPerCallUs - b.clientCpuPerCallUs);
  return table(
    [
      "server, transport, revision",
      "SDK client",
      "thin client p50 [ms]",
      "SDK client p50 [ms]",
      "difference p50 [ms]",
      "thin client p95 [ms]",
      "SDK client p95 [ms]",
      "difference p95 [ms]",
      "thin client CPU per call [µs]",
      "SDK client CPU per call [µs]",
      "difference CPU per call [µs]",
    ],
    ["l", "l", "r", "r", "r", "r", "r", "r", "r", "r", "r"],
    pairs.map(({ thin, sdk }) => [
      mdCell(thin.label),
      mdCell(sdk.client),
      ms(thin.p50Us),
      ms(sdk.p50Us),
      ms(sdk.p50Us - thin.p50Us),
      ms(thin.p95Us),
      ms(sdk.p95Us),
      ms(sdk.p95Us - thin.p95Us),
      cpuCell(thin),
      cpuCell(sdk),
      cpuDiff(sdk, thin),
    ]),
  );
}

/** Setup per MCP path: ready, session open, tools/list answered, first call answered. */
function setupTable(r: PercallResults): string {
  return table(
    ["path", "ready [ms]", "session open [ms]", "tools/list answered [ms]", "first call answered [ms]", "samples"],
    ["l", "r", "r", "r", "r", "r"],
    r.rows
      .filter((p) => p.kind === "mcp")
      .map((p) =>
        p.setup
          ? [mdCell(p.label), f1(p.setup.readyMs), f1(p.setup.openMs), f1(p.setup.listedMs), f1(p.setup.firstCallMs), String(p.setup.samples)]
          : [mdCell(p.label), "—", "—", "—", "—", "0"],
      ),
  );
}

/** The loops: sequential, concurrent over one session and one batch, with their ratios. */
function loopsTable(r: PercallResults): string {
  const n = r.settings.loopCalls;
  return table(
    ["path", `${n} sequential [ms]`, `${n} concurrent [ms]`, `1 batch of ${n} [ms]`, "concurrent ÷ sequential", "batch ÷ sequential"],
    ["l", "r", "r", "r", "r", "r"],
    r.rows
      .filter((p) => !isClientCell(p))
      .map((p) => {
        const l = p.loops;
        return l
          ? [mdCell(p.label), f1(l.sequentialMs), f1(l.concurrentMs), f1(l.batchMs), f2(l.concurrentMs / l.sequentialMs), f2(l.batchMs / l.sequentialMs)]
          : [mdCell(p.label), ...Array<string>(5).fill(NOT_MEASURED)];
      }),
  );
}

/** The payload sweep: p50 per result size, the smallest size's p50 (≈ per message) and the cost per KB. */
function payloadTable(r: PercallResults, direct: PercallRow): string {
  const limits = r.settings.payloadLimits;
  return table(
    [
      "path",
      ...limits.map((l) => `limit ${l}: ${f1((direct.payload.find((x) => x.limit === l)?.resultBytes ?? 0) / 1024)} KB p50 [ms]`),
      "smallest-size p50 (≈ per message) [ms]",
      "per KB [µs]",
    ],
    ["l", ...limits.map(() => "r" as const), "r", "r"],
    r.rows
      .filter((p) => !isClientCell(p))
      .map((p) => {
        if (p.payload.length === 0) return [mdCell(p.label), ...Array<string>(limits.length + 2).fill(NOT_MEASURED)];
        const cost = payloadCost(p.payload);
        return [mdCell(p.label), ...limits.map((l) => ms(p.payload.find((x) => x.limit === l)?.p50Us ?? NaN)), ms(cost.perMessageUs), f1(cost.perKbUs)];
      }),
  );
}

/** The overhead's share of an agent turn of the declared (assumed) length, per MCP path and declared row. */
function turnShareTable(r: PercallResults): string {
  const shares = r.rows
    .filter((p) => p.kind === "mcp")
    .flatMap((p) => {
      const b = baselineOf(p, r.rows);
      return b ? [{ p, rows: turnShare(r.assumptions.turnShareRows, b.p50Us, p.p50Us, r.assumptions.agentTurnSeconds) }] : [];
    });
  return table(
    ["path", "calls", "turns", "direct [ms]", "over MCP [ms]", "overhead [ms]", "overhead share of elapsed"],
    ["l", "l", "r", "r", "r", "r", "r"],
    shares.flatMap(({ p, rows }) =>
      rows.map((t) => [mdCell(p.label), mdCell(t.label), String(t.turns), f1(t.directMs), f1(t.overMcpMs), f1(t.overheadMs), pct(t.overheadShare)]),
    ),
  );
}

/** Each row with the figures it printed here (percall.tsv's p50_us and p95_us), to compare with the re-measured line. */
function reproduceTable(r: PercallResults): string {
  const command = (config: string): string => mdCode(reproduceCommand(config, r.matrix, RESULTS_FILES.percall));
  return table(
    ["configuration", "command that re-measures the row and prints it", "expected here: p50_us / p95_us (interval of the trial p50s [ms])"],
    ["l", "l", "l"],
    [
      ...r.rows.map((p) => [
        mdCode(p.config),
        command(p.config),
        `${mdCode(String(p.p50Us))} / ${mdCode(String(p.p95Us))}${trialIntervalText(p.trialP50Us) ? ` (${trialIntervalText(p.trialP50Us)})` : ""}`,
      ]),
      ...r.failed.map((p) => [mdCode(p.config), command(p.config), "no figure here (the path failed)"]),
    ],
  );
}

/** The runs that wrote the folder: command, configurations, machine, load, window, commit. */
function runViews(r: PercallResults): Array<Record<string, string>> {
  return r.runs.map((env) => ({
    command: mdCode(env.command),
    configurations: env.configurations.length === r.rows.length + r.failed.length ? "every configuration" : env.configurations.map((c) => mdCode(c)).join(", "),
    node: mdCell(env.node),
    os: mdCell(`${env.os} ${env.kernel}`),
    cpu: mdCell(`${env.cpuModel}, ${env.cores} cores`),
    load: mdCell(
      `${env.loadavgStart.map((x) => f2(x)).join(" / ")} at start, ${env.loadavgEnd.map((x) => f2(x)).join(" / ")} at end (1/5/15-minute load averages)`,
    ),
    window: mdCell(`${env.startedAt} – ${env.endedAt}`),
    git: mdCell(`${env.git.commit}${env.git.dirty ? " (uncommitted changes)" : ""}`),
  }));
}

/** The run's parameters as the method paragraph prints them. */
function settingsView(r: PercallResults): Record<string, string> {
  const s = r.settings;
  return {
    calls: String(s.calls),
    trials: String(s.trials),
    warmup: String(s.warmupCalls),
    query: mdCode(s.query),
    limit: String(s.limit),
    resultKb: f1(s.resultBytes / 1024),
    loopCalls: String(s.loopCalls),
    payloadCalls: String(s.payloadCalls),
    percentileMethod: mdCell(s.percentileMethod),
    profileRate:
      s.profileHz === undefined
        ? "997 samples a second asked of V8 and the self-sampling windows (the rate before the matrix named one)"
        : `${s.profileHz} samples a second asked of V8 and the self-sampling windows (the matrix's timing.profileHz)`,
  };
}

/**
 * Build the page's markdown from a per-call results folder's contents: one function per section
 * above, the template (templates/mcp-per-call-overhead.md.njk) lays them out. Deterministic.
 * @param latencyChart the latency distribution chart of {@link percallDistribution}, when some path kept its calls
 * @param payloadChart the payload-sweep chart (sections/payload-chart.ts), when some path measured the sweep
 * @param stages the "Where the time goes" section (generators/sections/stage-tables.ts), when the folder holds profiled trials
 * @param resultsDir the results folder the page is rendered from, as `render` names it (printed in
 *   the whole-report run and render commands)
 */
export function percallMarkdown(r: PercallResults, resultsDir: string, latencyChart?: ChartView, payloadChart?: ChartView, stages?: StageSectionView): string {
  const direct = r.rows.find((p) => p.kind === "direct" && p.measuredBy === "wirecost")!; // the loader checked there is one
  return renderMarkdownTemplate("mcp-per-call-overhead.md.njk", {
    title: mdCell(r.title),
    answer: percallAnswer(r, (p) => baselineOf(p, r.rows)),
    dataFile: `${PERCALL_PAGE_ID}-percall.tsv`,
    definitions: definitionItems(["client", "revision", "trial", "percentile", "busy"]),
    latencyChart,
    payloadChart,
    stages: stages ?? null,
    keptPaths: String(r.rows.filter((p) => (r.callSamplesUs.get(p.config)?.length ?? 0) > 0).length),
    allPaths: String(r.rows.length),
    cpu: {
      all: r.rows.every((p) => p.clientCpuPerCallUs !== null),
      absent: r.rows.every((p) => p.clientCpuPerCallUs === null),
      rows: `${r.rows.filter((p) => p.clientCpuPerCallUs !== null).length} of ${r.rows.length}`,
    },
    settings: settingsView(r),
    latency: latencyTable(r),
    clients: clientsTable(r),
    clientGrid: clientGrid(r.rows, r.failed) ?? null,
    harness: harnessTables(r),
    failed: r.failed.map((f) => ({ config: mdCode(f.config), label: mdCell(f.label), reason: mdCell(f.reason) })),
    directLabel: mdCell(direct.label),
    setup: setupTable(r),
    loops: loopsTable(r),
    payload: payloadTable(r, direct),
    turnTable: turnShareTable(r),
    turnSeconds: formatFixed(r.assumptions.agentTurnSeconds, 1),
    assumptionNote: mdCell(r.assumptions.note),
    command: mdCode(`npx wirecost run ${shellQuote(r.matrix)} --results ${shellQuote(resultsDir)}`),
    renderCommand: mdCode(`npx wirecost render --results ${shellQuote(resultsDir)} --site /tmp/wirecost-site`),
    reproduce: reproduceTable(r),
    matrix: mdCode(r.matrix),
    runs: runViews(r),
    builds: buildsTable(r.builds) ?? null,
  });
}
