/**
 * The per-call report's answer first: per server and transport, p50 and p95 over the MCP boundary
 * beside the direct call, with the interval over trials, findings in sentences, the busy-machine
 * flag of each run, and the latency distributions from the kept samples as a chart. Every figure
 * is a cell of `percall.tsv` or `percall-samples.tsv`, or a ratio or difference of such cells.
 */
import { boxSvg, type BoxDatum } from "../charts/svg.js";
import { mdCell } from "../../format/markdown.js";
import { formatFixed } from "../format.js";
import { compareTuples } from "../../format/order.js";
import { toTsv } from "../../format/tsv.js";
import type { PercallResults, PercallRow } from "../results/percall.js";
import type { ChartView } from "./wire-charts.js";
import { intervalWords, MIN_TRIALS_FOR_BOOTSTRAP, trialInterval } from "../derive/bootstrap.js";

/** At most this many rows in the headline table (one per server and transport). */
const MAX_ROWS = 16;

const ms = (us: number): string => formatFixed(us / 1000, 3);
const f1 = (n: number): string => formatFixed(n, 1);

/**
 * The interval over trials of a per-trial figure as printed, `low–high` in ms: from
 * {@link MIN_TRIALS_FOR_BOOTSTRAP} trials on the percentile bootstrap interval of the median
 * (generators/derive/bootstrap.ts), below that the trials' min–max (the page says which). Empty
 * when no trial figure was kept.
 * @param trialsUs the per-trial figures, µs
 */
export function trialIntervalText(trialsUs: readonly number[]): string {
  const i = trialInterval(trialsUs);
  return i === undefined ? "" : `${ms(i.low)}–${ms(i.high)}`;
}

/**
 * The group of a path in the headline: its label without its revision, wherever the revision
 * stands in it (`TypeScript SDK v1, stdio, 2025-11-25, v1 SDK client` → `…, stdio, v1 SDK client`),
 * so the same server, transport and client at two revisions are one row.
 */
const groupLabel = (p: PercallRow): string => (p.revision !== "" && p.revision !== "none" ? p.label.replace(`, ${p.revision}`, "") : p.label);

/** The server a path measures (percall.tsv `server`; its target in results written before that column). */
const serverOf = (p: PercallRow): string => p.server || p.target;

/**
 * The headline's rows: one group per server and transport, the first in the matrix's order (the
 * thin client's, where the matrix lists it first), so every server measured has its row before
 * any server has a second; the other clients are in the full tables.
 */
function headlineGroups(mcp: readonly PercallRow[]): Array<[string, PercallRow[]]> {
  const groups = new Map<string, PercallRow[]>();
  for (const p of mcp) groups.set(groupLabel(p), [...(groups.get(groupLabel(p)) ?? []), p]);
  const seen = new Set<string>();
  return [...groups].filter(([, paths]) => {
    const key = `${serverOf(paths[0]!)}\t${paths[0]!.transport}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Spaces made non-breaking, so a short label column is not squeezed to one word a line by the wide figure columns. */
const keepTogether = (text: string): string => text.replace(/ /g, "\u00a0");

/** A difference in ms as printed: `+0.567`, `-0.012`. */
const signedMs = (us: number): string => (us > 0 ? `+${ms(us)}` : ms(us));

/**
 * The server of a path as the headline names it: its label up to its transport (no revision, no client), with
 * the installed SDK version when the label does not already carry it (`SDK v1 1.32.2`).
 */
export function serverLabel(p: PercallRow): string {
  const at = p.label.indexOf(`, ${p.transport}`);
  const label = at >= 0 ? p.label.slice(0, at) : groupLabel(p);
  return p.packageVersion !== "" && !label.includes(p.packageVersion) ? `${label} ${p.packageVersion}` : label;
}

/**
 * Who called the server on a path, from percall.tsv's `measured_by` and `client`: `thin client`
 * (wirecost's own JSON-RPC client), `SDK client (…)` (the server SDK's own client in wirecost's
 * process), `harness (…)` (a measurement command in the server's language, with its SDK client),
 * `not recorded` (a results file from before the `client` column).
 */
export function clientLabel(p: PercallRow): string {
  if (p.measuredBy === "harness") return p.client !== "" ? `harness (${p.client})` : "harness";
  if (p.client === "wirecost") return "thin client";
  return p.client !== "" ? `SDK client (${p.client})` : "not recorded";
}

/** The headline's markdown view. */
export interface PercallAnswer {
  /** Markdown table (pipe syntax). */
  table: string;
  /** True when some paths (other clients, or servers past {@link MAX_ROWS}) were left to the full table. */
  cut: boolean;
  /** Findings, one markdown sentence each. */
  findings: string[];
  /** Trials per path (the most any path has), as printed. */
  trials: string;
  /** True when some path has fewer than {@link MIN_TRIALS_FOR_BOOTSTRAP} trials. */
  minMax: boolean;
  /** How the intervals in brackets were taken (generators/derive/bootstrap.ts `intervalWords`). */
  intervalWords: string;
  /** The busy-machine line: `busy` when some run's 1-minute load at start or end was above its cores. */
  load: { busy: boolean; text: string };
}

/**
 * Build the answer from the results.
 * @param baselineOf the direct row a path is compared with (the page's own rule)
 */
export function percallAnswer(r: PercallResults, baselineOf: (p: PercallRow) => PercallRow | undefined): PercallAnswer {
  const mcp = r.rows.filter((p) => p.kind === "mcp");
  const revisions = [...new Set(mcp.map((p) => p.revision))].sort((a, b) => compareTuples([a], [b]));
  const all = headlineGroups(mcp);
  const shown = all.slice(0, MAX_ROWS);
  const header = [
    "server",
    "client",
    "transport",
    "direct p50 / p95 [ms]",
    ...revisions.flatMap((rev) => [`p50 [ms], revision ${rev}`, "− direct [ms] (×)", `p95 [ms], revision ${rev}`, "− direct [ms]"]),
  ];
  const rows = shown.map(([, paths]) => {
    const base = paths.map(baselineOf).find((b) => b !== undefined);
    const first = paths[0];
    const withRange = (us: number, trials: readonly number[]): string => (trialIntervalText(trials) ? `${ms(us)} (${trialIntervalText(trials)})` : ms(us));
    return [
      first ? keepTogether(mdCell(serverLabel(first))) : "—",
      first ? keepTogether(mdCell(clientLabel(first))) : "—",
      first ? mdCell(first.transport) : "—",
      base ? `${withRange(base.p50Us, base.trialP50Us)} / ${withRange(base.p95Us, base.trialP95Us)}` : "—",
      ...revisions.flatMap((rev) => {
        const p = paths.find((x) => x.revision === rev);
        if (p === undefined) return ["—", "—", "—", "—"];
        return [
          withRange(p.p50Us, p.trialP50Us),
          base ? `${signedMs(p.p50Us - base.p50Us)} (${f1(p.p50Us / base.p50Us)}×)` : "—",
          withRange(p.p95Us, p.trialP95Us),
          base ? signedMs(p.p95Us - base.p95Us) : "—",
        ];
      }),
    ];
  });
  const sep = header.map((_, i) => (i < 3 ? ":---" : "---:"));
  const table = [header, sep, ...rows].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
  const trials = Math.max(0, ...r.rows.map((p) => p.trialP50Us.length));
  return {
    table,
    cut: shown.length < new Set(mcp.map(groupLabel)).size,
    findings: findings(mcp, revisions, baselineOf),
    trials: String(trials),
    minMax: r.rows.some((p) => p.trialP50Us.length < MIN_TRIALS_FOR_BOOTSTRAP),
    intervalWords: intervalWords(r.rows.flatMap((p) => trialInterval(p.trialP50Us)?.method ?? [])),
    load: loadLine(r),
  };
}

/** Per transport the ratio range to the direct call and the fastest path; per pair of revisions the paths whose trial ranges do not overlap. */
function findings(mcp: readonly PercallRow[], revisions: readonly string[], baselineOf: (p: PercallRow) => PercallRow | undefined): string[] {
  const out: string[] = [];
  for (const transport of [...new Set(mcp.map((p) => p.transport))].sort()) {
    const here = mcp
      .filter((p) => p.transport === transport)
      .map((p) => ({ p, base: baselineOf(p) }))
      .filter((x): x is { p: PercallRow; base: PercallRow } => x.base !== undefined);
    if (here.length === 0) continue;
    const byRatio = [...here].sort((a, b) => a.p.p50Us / a.base.p50Us - b.p.p50Us / b.base.p50Us);
    const ratioOf = (x: { p: PercallRow; base: PercallRow } | undefined) => f1(x ? x.p.p50Us / x.base.p50Us : 0);
    const [least, most] = [byRatio[0], byRatio[byRatio.length - 1]];
    const fastest = [...here].sort((a, b) => a.p.p50Us - b.p.p50Us)[0];
    const lo = ratioOf(least);
    const hi = ratioOf(most);
    const range = lo === hi ? `${lo}×` : `${lo}× (${mdCell(least?.p.label ?? "")}) to ${hi}× (${mdCell(most?.p.label ?? "")})`;
    out.push(
      `Over ${mdCell(transport)}, a call's p50 is ${range} that of the direct call it is compared with; the fastest path is ${mdCell(fastest?.p.label ?? "")} at ${ms(fastest?.p.p50Us ?? 0)} ms.`,
    );
  }
  const newest = revisions[revisions.length - 1];
  const previous = revisions[revisions.length - 2];
  if (newest !== undefined && previous !== undefined) {
    const slower: string[] = [];
    const faster: string[] = [];
    const overlap: string[] = [];
    for (const a of mcp.filter((p) => p.revision === previous)) {
      const b = mcp.find((p) => p.revision === newest && groupLabel(p) === groupLabel(a));
      if (b === undefined || a.trialP50Us.length === 0 || b.trialP50Us.length === 0) continue;
      const [aLo, aHi, bLo, bHi] = [Math.min(...a.trialP50Us), Math.max(...a.trialP50Us), Math.min(...b.trialP50Us), Math.max(...b.trialP50Us)];
      const name = mdCell(groupLabel(a));
      if (bLo > aHi) slower.push(`${name} (${ms(b.p50Us)} vs ${ms(a.p50Us)} ms)`);
      else if (bHi < aLo) faster.push(`${name} (${ms(b.p50Us)} vs ${ms(a.p50Us)} ms)`);
      else overlap.push(name);
    }
    if (slower.length > 0)
      out.push(`At ${newest} the p50 is higher than at ${previous}, every trial of one above every trial of the other, for ${slower.join("; ")}.`);
    if (faster.length > 0) out.push(`At ${newest} the p50 is lower than at ${previous}, every trial below, for ${faster.join("; ")}.`);
    if (overlap.length > 0) out.push(`The trials of the two revisions overlap, so no difference is claimed, for ${overlap.join("; ")}.`);
  }
  return out;
}

/**
 * The busy-machine line: trials whose 1-minute load average before them was above the run's
 * cores (as the A2A page flags its trials); without per-trial loads, the runs' loads at start and end.
 */
function loadLine(r: PercallResults): { busy: boolean; text: string } {
  const cores = Math.min(...r.runs.map((run) => run.cores));
  const coresText = [...new Set(r.runs.map((run) => run.cores))].join(", ");
  const perTrial = r.trialLoad1.length > 0;
  const loads = perTrial ? [...r.trialLoad1] : r.runs.flatMap((run) => [run.loadavgStart[0], run.loadavgEnd[0]]).filter((x): x is number => x !== undefined);
  const range = loads.length === 0 ? "not recorded" : `${formatFixed(Math.min(...loads), 2)}–${formatFixed(Math.max(...loads), 2)}`;
  const busy = loads.filter((x) => x > cores).length;
  const where = perTrial ? "before the trials" : "at the runs' starts and ends";
  if (busy > 0)
    return {
      busy: true,
      text: `**Busy machine.** ${perTrial ? `${busy} of ${loads.length} trials started` : "A run started or ended"} with a 1-minute load average above the ${coresText} cores (load ${range} ${where}). Other work competed for the CPUs: latencies are higher and vary more than on an idle machine; paths were interleaved, so ratios are more trustworthy than absolute figures.`,
    };
  return { busy: false, text: `No trial started on a busy machine (1-minute load ${range} ${where}, ${coresText} cores).` };
}

/**
 * The latency distributions of the paths whose every call was kept, as a box plot (and its data:
 * the five-number summary per path, ms).
 * @returns undefined when no path kept its calls
 */
export async function percallDistribution(
  r: PercallResults,
  stem: string,
): Promise<{ view: ChartView; assets: Array<{ file: string; content: string }> } | undefined> {
  const data: BoxDatum[] = [];
  const summary: Array<Array<string | number>> = [];
  for (const p of r.rows) {
    const samples = r.callSamplesUs.get(p.config);
    if (samples === undefined || samples.length === 0) continue;
    const sorted = [...samples].sort((a, b) => a - b);
    // Nearest-rank percentile (the smallest sample with at least f of the samples at or below it), the
    // rule of the report's p50/p95; simple-statistics' quantileSorted interpolates between samples instead.
    const q = (f: number): number => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(f * sorted.length) - 1))] ?? 0;
    data.push({ label: p.label, min: q(0) / 1000, q1: q(0.25) / 1000, median: q(0.5) / 1000, q3: q(0.75) / 1000, p95: q(0.95) / 1000, max: q(1) / 1000 });
    summary.push([p.config, p.label, sorted.length, q(0), q(0.25), q(0.5), q(0.75), q(0.95), q(1)]);
  }
  if (data.length === 0) return undefined;
  const svg = `${stem}-latency.svg`;
  const tsv = `${stem}-latency.tsv`;
  return {
    view: {
      svg,
      data: tsv,
      alt: `Latency of every kept call, ${data.length} of ${r.rows.length} paths (those that kept each call): a box from the 25th to the 75th percentile with the median, whiskers from the fastest call to the 95th percentile`,
    },
    assets: [
      { file: svg, content: await boxSvg(data, "Latency per call [ms]") },
      {
        file: tsv,
        content: toTsv(["config", "path", "calls", "min_us", "p25_us", "p50_us", "p75_us", "p95_us", "max_us"], summary),
      },
    ],
  };
}
