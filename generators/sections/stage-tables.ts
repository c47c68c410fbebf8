/**
 * The per-call page's "Where the time goes" section (README "How to read a stage table"): per path
 * its profiled trial's stage table (stage, process, µs per call, share of the overhead), the kind
 * subtotals (validation = build-validate + parse-validate + parse-result; scheduling; serialisation;
 * transport; …), the by-process reading, check (a) (the rows against the profiled calls' own
 * stopwatch) and check (b) (the profiled overhead plus the direct call against the unprofiled
 * trials' mean per call; the profiler's own cost beside it; more than {@link CHECK_B_LIMIT} apart is flagged),
 * and one stacked bar per path on a shared scale (SVG with its plotted values as TSV). Every figure
 * comes from the results files (generators/results/attribution.ts); this module does arithmetic only.
 */
import { STAGE_KIND_ORDER } from "../../format/attribution.js";
import { toTsv } from "../../format/tsv.js";
import { median } from "simple-statistics";
import { stageBarsSvg, type StageDatum } from "../charts/svg.js";
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatFixed } from "../format.js";
import { profileSiteFile, type ProfiledRead, type ServerStagesRead, type StageRowRead } from "../results/attribution.js";
import type { PercallResults, PercallRow } from "../results/percall.js";
import type { ChartView } from "./wire-charts.js";

/** Check (b) is flagged when the two sides differ by more than this share of the unprofiled mean. */
export const CHECK_B_LIMIT = 0.15;

const us1 = (x: number): string => formatFixed(x, 1);
const pct = (x: number): string => `${formatFixed(x * 100, 1)} %`;
const ms = (us: number): string => formatFixed(us / 1000, 3);

/** The overhead of a stage table: every row's time but the work's (µs per call); null when a row has no time. */
export function overheadUs(rows: readonly StageRowRead[]): number | null {
  if (rows.some((r) => r.usPerCall === null)) return null;
  return rows.filter((r) => r.kind !== "work").reduce((s, r) => s + r.usPerCall!, 0);
}

/** Sum of the rows' µs per call by a key (kind or process), in first-seen order; rows without time left out. */
export function subtotals(rows: readonly StageRowRead[], key: (r: StageRowRead) => string): Map<string, number> {
  const m = new Map<string, number>();
  for (const r of rows) if (r.usPerCall !== null) m.set(key(r), (m.get(key(r)) ?? 0) + r.usPerCall);
  return m;
}

/** A markdown table; cells must already be markdown-safe. */
function table(header: string[], align: Array<"l" | "r">, rows: string[][]): string {
  const sep = align.map((a) => (a === "r" ? "---:" : ":---"));
  return [header, sep, ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
}

/**
 * Check (b) of a path: the profiled overhead plus the direct call against a stopwatch that knows
 * nothing of stages, µs. Like with like throughout:
 * - Means: the stage rows sum to the window's wall time per call (a mean), so they are set against
 *   means (a median would set a mean against a median, which a latency tail alone moves by 10–25 %).
 * - The same pauses: the profiled window starts each call after a phase pause
 *   (runner/percall/phase-pause.ts), and a call after a pause starts cold (+40 µs on a 70 µs direct
 *   call here). Where the profiled trial recorded the same calls after the same pauses without a
 *   sampler (`paused_us_per_call`), that window is the reference (and the direct call's own paused
 *   window, when recorded, is what is added), so the check measures the profiler and the
 *   attribution alone; the pause's cost against the stopwatch trials is stated beside it.
 * - A harness path (the harness times its own window, without the pause) is set against the same
 *   calls timed unprofiled in the same process just before and just after its window
 *   (`adjacent_us_per_call`; the direct call's own adjacent windows added, when recorded). Without
 *   either (results written before them) the reference is the path's unprofiled mean per call (the
 *   median over trials of each trial's mean, `percall-samples.tsv`).
 */
export interface CheckB {
  overheadUs: number;
  directUs: number;
  predictedUs: number;
  /** What the prediction is set against: the paused unprofiled window, the adjacent unprofiled windows (a harness path), or the stopwatch trials' mean. */
  reference: "paused" | "adjacent" | "trials";
  referenceUs: number;
  /** The stopwatch trials' mean per call, µs (the median over trials of each trial's mean). */
  trialsMeanUs: number;
  /** predicted − reference, µs, and as a share of the reference. */
  differenceUs: number;
  share: number;
  flagged: boolean;
}

/** The unprofiled mean per call of a path (median over its trials' means, µs); undefined when its trials recorded no mean. */
export function unprofiledMeanUs(p: PercallRow): number | undefined {
  return p.trialMeanUs.length ? median(p.trialMeanUs) : undefined;
}

/**
 * Check (b), or why it cannot be made.
 * @param f the path's profiled trial; `directProfiled` the direct path's (its paused window is added when both have one)
 */
export function checkB(f: ProfiledRead, path: PercallRow, direct: PercallRow | undefined, directProfiled: ProfiledRead | undefined): CheckB | string {
  const over = overheadUs(f.rows);
  if (over === null) return "not computable: a row has no time (not attributed)";
  if (f.rows.some((r) => r.kind === "not attributed"))
    return "not computable: a process has no profile (not attributed), so its work cannot be told from its overhead";
  if (!direct) return "not computable: the direct path is not in this results folder";
  const pathMean = unprofiledMeanUs(path);
  const directMean = unprofiledMeanUs(direct);
  if (pathMean === undefined || directMean === undefined) return "not computable: the unprofiled trials recorded no mean per call";
  const reference = f.pausedUsPerCall !== null ? "paused" : f.adjacentUsPerCall !== null ? "adjacent" : "trials";
  const referenceUs = f.pausedUsPerCall ?? f.adjacentUsPerCall ?? pathMean;
  // The direct call like with like: its own window of the same kind, when it recorded one.
  const directWindow = reference === "paused" ? directProfiled?.pausedUsPerCall : reference === "adjacent" ? directProfiled?.adjacentUsPerCall : null;
  const directUs = directWindow ?? directMean;
  // The direct path is the call itself: its whole profiled time per call (work included).
  const predictedUs = path.kind === "direct" ? f.rows.reduce((s, r) => s + r.usPerCall!, 0) : over + directUs;
  const differenceUs = predictedUs - referenceUs;
  const share = differenceUs / referenceUs;
  return {
    overheadUs: over,
    directUs,
    predictedUs,
    reference,
    referenceUs,
    trialsMeanUs: pathMean,
    differenceUs,
    share,
    flagged: Math.abs(share) > CHECK_B_LIMIT,
  };
}

/** The sentence of check (b) and, beside it, the pause's and the profiler's own costs. */
function checkBText(b: CheckB | string, f: ProfiledRead, p: PercallRow): string {
  const mean = unprofiledMeanUs(p);
  const base = typeof b === "string" || b.reference === "trials" ? mean : b.referenceUs;
  const against =
    typeof b === "string" || b.reference === "trials"
      ? "unprofiled mean"
      : b.reference === "paused"
        ? "the same calls unprofiled after the same pauses"
        : "the same calls unprofiled in the same process";
  const pause =
    typeof b === "string" || b.reference === "trials"
      ? ""
      : b.reference === "paused"
        ? ` The pause's own cost: ${ms(b.referenceUs)} ms against the stopwatch trials' mean ${ms(b.trialsMeanUs)} ms (${pct((b.referenceUs - b.trialsMeanUs) / b.trialsMeanUs)}${b.referenceUs > b.trialsMeanUs ? ": a call after a pause starts cold" : ""}).`
        : ` Those windows against the stopwatch trials' mean ${ms(b.trialsMeanUs)} ms: ${pct((b.referenceUs - b.trialsMeanUs) / b.trialsMeanUs)}.`;
  const cost =
    f.meanUs === null || base === undefined
      ? ""
      : ` The profiler's own cost: profiled mean ${ms(f.meanUs)} ms against ${against} ${ms(base)} ms (${pct((f.meanUs - base) / base)}).`;
  if (typeof b === "string") return `${b}.${cost}`;
  const reference =
    b.reference === "paused"
      ? "the same calls unprofiled, after the same pauses,"
      : b.reference === "adjacent"
        ? "the same calls unprofiled in the same process, just before and after the window,"
        : "the unprofiled trials' mean";
  const predicted = p.kind === "direct" ? "the call's profiled time" : `overhead ${ms(b.overheadUs)} ms + direct call ${ms(b.directUs)} ms =`;
  const verdict = b.flagged ? ` — **more than ${pct(CHECK_B_LIMIT)} apart: check (b) does not hold for this path**` : ", within 15 %";
  // A share that rounds to the limit itself is printed with two decimals, so a flagged path never reads "15.0 %, more than 15.0 %".
  const share = Math.abs(Number((Math.abs(b.share) * 100).toFixed(1)) - CHECK_B_LIMIT * 100) < 1e-9 ? `${formatFixed(b.share * 100, 2)} %` : pct(b.share);
  return `${predicted} ${ms(b.predictedUs)} ms against ${reference} ${ms(b.referenceUs)} ms: difference ${ms(b.differenceUs)} ms (${share})${verdict}.${pause}${cost}`;
}

/** One path's part of the section. */
export interface StagePathView {
  label: string;
  config: string;
  /** `ok`, or the one-line reason the profiled trial failed. */
  failure: string;
  samplers: string;
  profiles: string;
  table: string;
  kinds: string;
  byProcess: string;
  unclassified: string;
  checkA: string;
  checkB: string;
  flagged: boolean;
}

/** The Python stdio path's validation and scheduling subtotals beside the seed's (13 and 6.5 of 27 ms). */
export interface SeedComparison {
  label: string;
  overheadMs: string;
  validationMs: string;
  validationShare: string;
  schedulingMs: string;
  schedulingShare: string;
  /** The overhead without the hand-off (the processes' CPU), and the two subtotals' shares of it. */
  cpuMs: string;
  validationCpuShare: string;
  schedulingCpuShare: string;
}

/** The section: per-path views, the chart, the count of paths whose check (b) holds, and the seed comparison rows. */
export interface StageSectionView {
  paths: StagePathView[];
  chart: ChartView | null;
  holds: string;
  flagged: string[];
  seed: SeedComparison[];
}

function pathView(p: PercallRow, f: ProfiledRead, direct: PercallRow | undefined, directProfiled: ProfiledRead | undefined, stem: string): StagePathView {
  const base = { label: mdCell(p.label), config: mdCode(p.config) };
  if (f.status !== "ok")
    return {
      ...base,
      failure: mdCell(f.reason || "failed"),
      samplers: "",
      profiles: "",
      table: "",
      kinds: "",
      byProcess: "",
      unclassified: "",
      checkA: "",
      checkB: "",
      flagged: false,
    };
  const over = overheadUs(f.rows);
  const share = (r: StageRowRead): string =>
    r.kind === "work" ? "(the work)" : r.usPerCall === null || over === null || over === 0 ? "—" : pct(r.usPerCall / over);
  const stageTable = table(
    ["stage", "process", "µs per call", "share of the overhead", "samples", "note"],
    ["l", "l", "r", "r", "r", "l"],
    f.rows.map((r) => [
      r.kind === "work" ? `*${mdCell(r.label)}*` : mdCell(r.label),
      mdCell(r.process),
      r.usPerCall === null ? "not measured" : us1(r.usPerCall),
      share(r),
      r.samples === null ? "measured" : String(r.samples),
      mdCell(r.note),
    ]),
  );
  const kinds = subtotals(f.rows, (r) => r.kind);
  const kindTable = table(
    ["kind", "µs per call", "share of the overhead"],
    ["l", "r", "r"],
    STAGE_KIND_ORDER.filter((k) => kinds.has(k)).map((k) => [
      mdCell(k),
      us1(kinds.get(k)!),
      k === "work" ? "(the work)" : over ? pct(kinds.get(k)! / over) : "—",
    ]),
  );
  const procs = subtotals(f.rows, (r) => r.process);
  const procTable = table(
    ["process", "µs per call", "share of the time per call"],
    ["l", "r", "r"],
    [...procs].map(([k, v]) => [mdCell(k), us1(v), f.stagesSumUs ? pct(v / f.stagesSumUs) : "—"]),
  );
  const leaves = f.unclassified.length
    ? f.unclassified.map((u) => `${mdCell(u.process)}: ${mdCode(u.frame)} ${us1(u.usPerCall)} µs (${u.samples} samples)`).join("; ")
    : "";
  const a =
    f.stagesSumUs === null || f.meanUs === null
      ? "not computable: a row has no time (not attributed)"
      : `the rows sum to ${us1(f.stagesSumUs)} µs per call; the profiled calls' own stopwatch: mean ${us1(f.meanUs)} µs (difference ${us1(f.stagesSumUs - f.meanUs)} µs, ${pct((f.stagesSumUs - f.meanUs) / f.meanUs)}; the rows cover the window, the stopwatch each call from send to answer)`;
  const b = checkB(f, p, direct, directProfiled);
  const bText = checkBText(b, f, p);
  const profiles = [f.clientProfile, f.serverProfile]
    .filter(Boolean)
    .map((x) => `[${mdCell(x.split("/").pop()!.replace(".folded", ""))}](${profileSiteFile(stem, x)})`)
    .join(", ");
  return {
    ...base,
    failure: "",
    samplers: mdCell(`client ${f.clientSampler || "none"}${f.serverSampler ? `, server ${f.serverSampler}` : ""}; ${f.calls} calls`),
    profiles: profiles || "none kept",
    table: stageTable,
    kinds: kindTable,
    byProcess: procTable,
    unclassified: leaves,
    checkA: mdCell(a),
    checkB: bText,
    flagged: typeof b !== "string" && b.flagged,
  };
}

/** The stacked bars' values: per ok profiled path each row with a time, and the stages in first-seen order. */
function stageBarData(shown: readonly PercallRow[], profiled: ReadonlyMap<string, ProfiledRead>): { data: StageDatum[]; stageOrder: string[] } {
  const data: StageDatum[] = [];
  const stageOrder: string[] = [];
  for (const p of shown) {
    const f = profiled.get(p.config)!;
    if (f.status !== "ok") continue;
    for (const x of f.rows) {
      if (x.usPerCall === null) continue;
      if (!stageOrder.includes(x.label)) stageOrder.push(x.label);
      data.push({ path: p.label, stage: x.label, us: x.usPerCall });
    }
  }
  return { data, stageOrder };
}

/** The seed comparison rows: each Python-style harness path over stdio, its validation and scheduling subtotals in ms and as shares. */
function seedRows(shown: readonly PercallRow[], profiled: ReadonlyMap<string, ProfiledRead>): SeedComparison[] {
  return shown
    .filter((p) => p.measuredBy === "harness" && p.kind === "mcp" && p.transport === "stdio" && profiled.get(p.config)!.status === "ok")
    .flatMap((p) => {
      const rows = profiled.get(p.config)!.rows;
      const over = overheadUs(rows);
      // A process without a profile (no sampler for its language yet) cannot tell validation from scheduling: no row, never a zero.
      if (over === null || over === 0 || rows.some((x) => x.kind === "not attributed")) return [];
      const k = subtotals(rows, (x) => x.kind);
      const v = k.get("validation") ?? 0;
      const s = k.get("scheduling") ?? 0;
      // The same shares of the processes' CPU alone (the hand-off left out): on a loaded machine the hand-off holds the run queue's wait.
      const cpu = over - rows.filter((x) => x.stage === "hand-off").reduce((n, x) => n + (x.usPerCall ?? 0), 0);
      return [
        {
          label: mdCell(p.label),
          overheadMs: ms(over),
          validationMs: ms(v),
          validationShare: pct(v / over),
          schedulingMs: ms(s),
          schedulingShare: pct(s / over),
          cpuMs: ms(cpu),
          validationCpuShare: cpu > 0 ? pct(v / cpu) : "—",
          schedulingCpuShare: cpu > 0 ? pct(s / cpu) : "—",
        },
      ];
    });
}

/**
 * The section's view and its chart files.
 * @param stem file stem of the chart (`<stem>-stages.svg` and `.tsv`)
 * @returns undefined when the folder holds no profiled trials
 */
export async function stageSection(
  r: PercallResults,
  profiled: ReadonlyMap<string, ProfiledRead> | undefined,
  stem: string,
): Promise<{ view: StageSectionView; assets: Array<{ file: string; content: string }> } | undefined> {
  if (!profiled || profiled.size === 0) return undefined;
  const directOf = (f: ProfiledRead): PercallRow | undefined => r.rows.find((x) => x.target === f.directTarget && x.kind === "direct");
  const directProfiledOf = (f: ProfiledRead): ProfiledRead | undefined => {
    const d = directOf(f);
    return d ? profiled.get(d.config) : undefined;
  };
  const shown = r.rows.filter((p) => profiled.has(p.config));
  const paths = shown.map((p) => {
    const f = profiled.get(p.config)!;
    return pathView(p, f, directOf(f), directProfiledOf(f), stem);
  });
  const checks = shown
    .map((p) => {
      const f = profiled.get(p.config)!;
      return checkB(f, p, directOf(f), directProfiledOf(f));
    })
    .filter((b): b is CheckB => typeof b !== "string");
  const { data, stageOrder } = stageBarData(shown, profiled);
  const svg = `${stem}-stages.svg`;
  const tsv = `${stem}-stages.tsv`;
  const chart = data.length
    ? { svg, data: tsv, alt: `Time per call of ${new Set(data.map((d) => d.path)).size} profiled paths split by stage, one stacked bar per path on one scale` }
    : null;
  const notComputable = shown.length - checks.length;
  return {
    view: {
      paths,
      chart,
      holds: `${checks.filter((b) => !b.flagged).length} of ${checks.length} paths${notComputable > 0 ? ` (not computable for ${notComputable} more: the reason is beside each)` : ""}`,
      flagged: shown.filter((_p, i) => paths[i]!.flagged).map((p) => mdCell(p.label)),
      seed: seedRows(shown, profiled),
    },
    assets: chart
      ? [
          { file: svg, content: await stageBarsSvg(data, stageOrder) },
          {
            file: tsv,
            content: toTsv(
              ["path", "stage", "us_per_call"],
              data.map((d) => [d.path, d.stage, d.us]),
            ),
          },
        ]
      : [],
  };
}

/**
 * The A2A page's "Server CPU per request by stage" section: per server its profiled window's stage
 * table (µs per request, share of the window's CPU per request, which the rows sum to), the kind
 * subtotals, beside the unprofiled CPU per request (median over trials), and one stacked bar per
 * server on a shared scale (SVG with its plotted values as TSV). Markdown, or undefined without stage tables.
 * @param cpuOf the unprofiled CPU per request of a configuration (median over trials, µs), when measured
 */
export async function serverStagesSection(
  stages: ReadonlyMap<string, ServerStagesRead> | undefined,
  labelOf: (config: string) => string,
  cpuOf: (config: string) => number | undefined,
  stem: string,
): Promise<{ markdown: string; assets: Array<{ file: string; content: string }> } | undefined> {
  if (!stages || stages.size === 0) return undefined;
  const parts: string[] = [];
  const data: StageDatum[] = [];
  const order: string[] = [];
  for (const s of stages.values()) {
    const total = s.rows.every((r) => r.usPerCall !== null) ? s.rows.reduce((n, r) => n + r.usPerCall!, 0) : null;
    const share = (us: number | null): string => (us === null || !total ? "—" : pct(us / total));
    const rows = s.rows.map((r) => [
      mdCell(r.label),
      r.usPerCall === null ? "not measured" : us1(r.usPerCall),
      share(r.usPerCall),
      r.samples === null ? "measured" : String(r.samples),
      mdCell(r.note),
    ]);
    const kinds = subtotals(s.rows, (r) => r.kind);
    const cpu = cpuOf(s.config);
    parts.push(
      [
        `### ${mdCell(labelOf(s.config))}`,
        "",
        `Configuration ${mdCode(s.config)}, sampler ${mdCell(s.sampler)}. The rows sum to ${total === null ? "— (a row has no time)" : `${us1(total)} µs`}; the profiled window's measured CPU per request: ${s.windowCpuPerRequestUs === null ? "not measured" : `${us1(s.windowCpuPerRequestUs)} µs`}; the unprofiled trials' (median): ${cpu === undefined ? "not measured" : `${us1(cpu)} µs`}${cpu !== undefined && s.windowCpuPerRequestUs !== null ? ` (the profiler's own cost: ${pct((s.windowCpuPerRequestUs - cpu) / cpu)})` : ""}.`,
        "",
        table(["stage", "µs per request", "share of the CPU per request", "samples", "note"], ["l", "r", "r", "r", "l"], rows),
        "",
        `By kind: ${STAGE_KIND_ORDER.filter((k) => kinds.has(k))
          .map((k) => `${mdCell(k)} ${us1(kinds.get(k)!)} µs (${share(kinds.get(k)!)})`)
          .join(", ")}.`,
        "",
      ].join("\n"),
    );
    for (const r of s.rows) {
      if (r.usPerCall === null) continue;
      if (!order.includes(r.label)) order.push(r.label);
      data.push({ path: labelOf(s.config), stage: r.label, us: r.usPerCall });
    }
  }
  const svg = `${stem}-stages.svg`;
  const tsv = `${stem}-stages.tsv`;
  const chart = data.length
    ? `![Server CPU per request of ${stages.size} servers split by stage, one stacked bar per server on one scale](${svg})\n\nPlotted values (µs per request by server and stage): [${tsv}](${tsv}).\n\n`
    : "";
  const intro =
    "Each server's first trial also ran a profiled window after its timed one: the same requests on the same warm process, sampled (through the server's own signal window: V8 for Node, runtime/pprof for Go, the pprof crate for Rust; or py-spy by pid), its user and system CPU read at both ends. Its user CPU is split over the stages by samples (the target's stage rules: HTTP parsing is the transport row, JSON decode and model validation parse and validate, routing and the JSON-RPC handler dispatch, the agent and its task handling the work, the response build and serialise), its system CPU is the kernel row (a Go server's monitor thread, which runtime/pprof never samples, is its own measured row); the rows sum to the window's measured CPU per request. README \"How to read a stage table\".\n\n";
  return {
    markdown: `## Server CPU per request by stage\n\n${intro}${chart}${parts.join("\n")}`,
    assets: data.length
      ? [
          { file: svg, content: await stageBarsSvg(data, order) },
          {
            file: tsv,
            content: toTsv(
              ["server", "stage", "us_per_request"],
              data.map((d) => [d.path, d.stage, d.us]),
            ),
          },
        ]
      : [],
  };
}
