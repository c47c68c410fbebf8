/**
 * The A2A page's two CPU probes side by side, from timing results only:
 * - the fixed-count probe (the headline's): the timed window's N sequential calls on one warm
 *   keep-alive connection, server CPU from schedstat (`cpu_per_request_us`, `calls`);
 * - the time-window probe (the seed write-up's): each throughput window, a fixed duration at 1 and
 *   at 50 connections, its request count, its CPU per request by schedstat and by clock ticks
 *   (utime + stime) with the ticks counted and their quantisation error (`tput_c<N>_…`; results of
 *   timing schema 1 lack the tick figures), the formula and the tick's length (`getconf CLK_TCK`,
 *   `machine.clockTicksPerSecond` of `timings-run.json`) said in a sentence.
 * Per probe: each SDK's figure with its interval over trials, the floor's, the floor-subtracted
 * figure; per pair of SDKs the ratio under each probe, raw and floor-subtracted; and sentences that
 * say from the figures why the ratios differ (the floor's own share, the change with concurrency).
 */
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatFixed, formatInt } from "../format.js";
import { trialInterval } from "../derive/bootstrap.js";
import type { TimingConfiguration, Timings } from "../results/timings.js";
import { tableView, type TableView } from "../table.js";

/** One probe: how the page names it and the prefix of its metrics in `timings-summary.tsv`. */
export interface Probe {
  /** `fixed count` or `time window, N connection(s)`. */
  name: string;
  /** Metric prefix: "" for the fixed-count probe, `tput_c<N>_` for a window. */
  prefix: string;
  /** Metric holding the requests of one trial (`calls` or `tput_c<N>_requests`). */
  requestsMetric: string;
  /** Connections the probe's load used. */
  connections: number;
}

/** The probes of a run: the fixed-count probe, then one time window per connection count. */
export function probesOf(t: Timings): Probe[] {
  return [
    { name: "fixed count", prefix: "", requestsMetric: "calls", connections: 1 },
    ...(t.timing.connections ?? []).map((n) => ({
      name: `time window, ${formatInt(n)} connection${n === 1 ? "" : "s"}`,
      prefix: `tput_c${n}_`,
      requestsMetric: `tput_c${n}_requests`,
      connections: n,
    })),
  ];
}

/** The view the template shows. */
export interface ProbesView {
  /** Per target, layout and probe: requests, CPU per request with its interval, ticks, quantisation, minus and times the floor. */
  table: TableView;
  /** Per layout and pair of SDKs (heavier first by the fixed-count probe): the ratio under each probe, raw and floor-subtracted. */
  ratios: TableView | null;
  /** Sentences from the figures: the floor's cost per probe and its share, the change from 1 to the most connections. */
  findings: string[];
  /** A note when the results predate the windows' tick figures; "" otherwise. */
  note: string;
}

const us = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) ? "—" : formatFixed(v, 1));
const times = (v: number | undefined): string => (v === undefined || !Number.isFinite(v) || v <= 0 ? "—" : `${formatFixed(v, 1)}×`);
const signedPct = (v: number): string => `${v > 0 ? "+" : ""}${formatFixed(v, 0)} %`;

/** What every part of the section reads: the results, the probes, the layouts and targets, and the CPU figure of each. */
interface ProbeData {
  t: Timings;
  floor: string;
  probes: Probe[];
  /** Layouts in the page's order, those with a configuration only. */
  layouts: string[];
  targets: string[];
  /** The targets but the floor. */
  subjects: string[];
  at: (target: string, layout: string) => TimingConfiguration | undefined;
  /** The median CPU per request of a configuration under a probe, µs. */
  cpu: (c: TimingConfiguration, p: Probe) => number | undefined;
  /** The floor's CPU per request in a layout under a probe, µs. */
  floorCpu: (layout: string, p: Probe) => number | undefined;
}

/** A pair of SDK targets in one layout, the heavier by the fixed-count probe first. */
interface Pair {
  layout: string;
  heavy: TimingConfiguration;
  light: TimingConfiguration;
}

function probeData(t: Timings, floor: string, layoutOrder: readonly string[]): ProbeData {
  const targets = [...new Set(t.configs.map((c) => c.target))];
  const at = (target: string, layout: string) => t.configs.find((c) => c.target === target && c.layout === layout);
  const cpu = (c: TimingConfiguration, p: Probe) => t.figure(c.id, `${p.prefix}cpu_per_request_us`)?.median;
  return {
    t,
    floor,
    probes: probesOf(t),
    layouts: [...new Set([...layoutOrder, ...t.configs.map((c) => c.layout)])].filter((l) => t.configs.some((c) => c.layout === l)),
    targets,
    subjects: targets.filter((n) => n !== floor),
    at,
    cpu,
    floorCpu: (layout, p) => {
      const f = at(floor, layout);
      return f ? cpu(f, p) : undefined;
    },
  };
}

/** The SDK targets of `layout` with a fixed-count CPU figure, heaviest first (`heaviestFirst`) or lightest first. */
function measuredIn(d: ProbeData, layout: string, heaviestFirst: boolean): TimingConfiguration[] {
  const fixed = d.probes[0]!;
  const sign = heaviestFirst ? -1 : 1;
  return d.subjects
    .map((s) => d.at(s, layout))
    .filter((c): c is TimingConfiguration => c !== undefined && d.cpu(c, fixed) !== undefined)
    .sort((a, b) => sign * (d.cpu(a, fixed)! - d.cpu(b, fixed)!));
}

/** The ratio of two configurations' CPU per request under a probe, with the floor's subtracted from both when `subtract`. */
function ratioOf(d: ProbeData, heavy: TimingConfiguration, light: TimingConfiguration, p: Probe, subtract: boolean): number | undefined {
  const h = d.cpu(heavy, p);
  const l = d.cpu(light, p);
  const f = subtract ? d.floorCpu(heavy.layout, p) : 0;
  return h === undefined || l === undefined || f === undefined ? undefined : (h - f) / (l - f);
}

/** The table: per target, layout and probe, its requests, CPU per request with its interval, ticks, quantisation error, minus and times the floor. */
function probeTable(d: ProbeData): TableView {
  const { t, floor, cpu } = d;
  const rows = d.layouts.flatMap((layout) =>
    d.targets.flatMap((target) => {
      const c = d.at(target, layout);
      return c ? d.probes.map((p) => ({ c, p })) : [];
    }),
  );
  const figure = (r: { c: TimingConfiguration; p: Probe }, metric: string) => t.figure(r.c.id, `${r.p.prefix}${metric}`);
  const vsFloor = (r: { c: TimingConfiguration; p: Probe }, show: (v: number, f: number) => string): string => {
    const f = d.floorCpu(r.c.layout, r.p);
    const v = cpu(r.c, r.p);
    return r.c.target === floor || f === undefined || v === undefined ? "—" : show(v, f);
  };
  return tableView<{ c: TimingConfiguration; p: Probe }>(
    [
      { header: "Target", align: "left", cell: (r) => r.c.target },
      { header: "Layout", align: "left", cell: (r) => r.c.layout },
      { header: "Probe", align: "left", cell: (r) => r.p.name },
      {
        header: "Requests per trial (median)",
        align: "right",
        cell: (r) => {
          const v = t.figure(r.c.id, r.p.requestsMetric)?.median;
          return v === undefined ? "—" : formatInt(v);
        },
      },
      { header: "CPU per request, schedstat (µs)", align: "right", cell: (r) => us(cpu(r.c, r.p)) },
      {
        header: "Interval (µs)",
        align: "right",
        cell: (r) => {
          const i = trialInterval(t.trialValues(r.c.id, `${r.p.prefix}cpu_per_request_us`));
          const f = figure(r, "cpu_per_request_us");
          if (i) return `${us(i.low)}–${us(i.high)}`;
          return f === undefined ? "—" : `${us(f.min)}–${us(f.max)}`;
        },
      },
      {
        header: "Ticks per trial (median)",
        align: "right",
        cell: (r) => {
          const v = figure(r, "ticks")?.median;
          return v === undefined ? "—" : formatFixed(v, Number.isInteger(v) ? 0 : 1);
        },
      },
      { header: "CPU per request, ticks (µs)", align: "right", cell: (r) => us(figure(r, "ticks_per_request_us")?.median) },
      {
        header: "Quantisation error",
        align: "right",
        cell: (r) => {
          // One tick over the median ticks counted, from the ticks themselves: the stored per cent
          // keeps 3 decimals, and rounding it again to 2 could move the last digit (1.2048 → 1.205 → 1.21).
          const ticks = figure(r, "ticks")?.median;
          const v = ticks !== undefined && ticks > 0 ? 100 / ticks : figure(r, "quantisation_error_pct")?.median;
          return v === undefined || !Number.isFinite(v) ? "—" : `${formatFixed(v, 2)} %`;
        },
      },
      { header: "− floor (µs)", align: "right", cell: (r) => vsFloor(r, (v, f) => us(v - f)) },
      { header: "× floor", align: "right", cell: (r) => vsFloor(r, (v, f) => times(v / f)) },
    ],
    rows,
  );
}

/** Every pair of SDK targets per layout, the heavier first by the fixed-count probe. */
function pairsOf(d: ProbeData): Pair[] {
  const pairs: Pair[] = [];
  for (const layout of d.layouts) {
    const measured = measuredIn(d, layout, true);
    for (let i = 0; i < measured.length; i++) for (let j = i + 1; j < measured.length; j++) pairs.push({ layout, heavy: measured[i]!, light: measured[j]! });
  }
  return pairs;
}

/** Per pair: the ratio under each probe, raw and floor-subtracted (null without pairs). */
function ratiosTable(d: ProbeData, pairs: Pair[]): TableView | null {
  if (pairs.length === 0) return null;
  return tableView(
    [
      { header: "Layout", align: "left", cell: (r: Pair) => r.layout },
      { header: "Heavier : lighter", align: "left", cell: (r: Pair) => `${r.heavy.target} : ${r.light.target}` },
      ...d.probes.map((p) => ({ header: `${p.name}`, align: "right" as const, cell: (r: Pair) => times(ratioOf(d, r.heavy, r.light, p, false)) })),
      ...d.probes.map((p) => ({
        header: `${p.name}, floor subtracted`,
        align: "right" as const,
        cell: (r: Pair) => times(ratioOf(d, r.heavy, r.light, p, true)),
      })),
    ],
    pairs.slice(0, 12),
  );
}

/** The widest pair of a layout under every probe, raw and floor-subtracted, and what concurrency does to its ratio (from `span[0]` to `span[1]` connections). */
function pairSentence(d: ProbeData, heavy: TimingConfiguration, light: TimingConfiguration, span: [Probe, Probe] | undefined): string {
  const list = (subtract: boolean) => d.probes.map((p) => `${times(ratioOf(d, heavy, light, p, subtract))} (${p.name})`).join(", ");
  let text = `**${mdCell(heavy.layout)}**, the widest pair, ${mdCode(heavy.target)} : ${mdCode(light.target)}: ${list(false)}; with the floor's CPU per request subtracted from both, ${list(true)}.`;
  const [from, to] = span ?? [];
  const h0 = from && d.cpu(heavy, from);
  const h1 = to && d.cpu(heavy, to);
  const l0 = from && d.cpu(light, from);
  const l1 = to && d.cpu(light, to);
  if (from && to && h0 && h1 && l0 && l1)
    text += ` From ${formatInt(from.connections)} to ${formatInt(to.connections)} connections ${mdCode(heavy.target)}'s CPU per request is multiplied by ${formatFixed(h1 / h0, 2)} and ${mdCode(light.target)}'s by ${formatFixed(l1 / l0, 2)}, so the ratio between them by ${formatFixed(h1 / h0 / (l1 / l0), 2)}.`;
  return text;
}

/** The floor's own CPU per request in `layout` under each probe and its share of the lightest SDK's ("" without a floor figure). */
function floorFinding(d: ProbeData, layout: string): string {
  const f = d.probes.map((p) => ({ p, v: d.floorCpu(layout, p) })).filter((x): x is { p: Probe; v: number } => x.v !== undefined);
  if (f.length === 0) return "";
  const lightest = measuredIn(d, layout, false)[0];
  const shares = lightest
    ? f
        .map((x) => {
          const v = d.cpu(lightest, x.p);
          return v === undefined ? undefined : `${formatFixed((x.v / v) * 100, 0)} %`;
        })
        .filter((x) => x !== undefined)
        .join(", ")
    : "";
  const share = lightest
    ? `; that is ${shares} of the lightest SDK's (${mdCode(lightest.target)}) figure under the same probes, so every ratio to it is pulled towards 1 by that much shared cost, and the floor-subtracted ratios are larger`
    : "";
  return `**${mdCell(layout)}**: the floor itself spends ${f.map((x) => `${us(x.v)} µs (${x.p.name})`).join(", ")} of server CPU per request${share}.`;
}

/** How each target's CPU per request in `layout` changes from 1 connection (`one`) to the most (`most`) ("" without both figures). */
function concurrencyFinding(d: ProbeData, layout: string, one: Probe, most: Probe): string {
  const changes = d.subjects
    .concat([d.floor])
    .map((s) => d.at(s, layout))
    .filter((c): c is TimingConfiguration => c !== undefined)
    .map((c) => ({ c, a: d.cpu(c, one), b: d.cpu(c, most) }))
    .filter((x): x is { c: TimingConfiguration; a: number; b: number } => x.a !== undefined && x.b !== undefined);
  if (changes.length === 0) return "";
  return `**${mdCell(layout)}**, concurrency: from 1 to ${formatInt(most.connections)} connections the CPU per request changes by ${changes.map((x) => `${signedPct(((x.b - x.a) / x.a) * 100)} for ${mdCode(x.c.target)} (${us(x.a)} → ${us(x.b)} µs)`).join(", ")}; a ratio between two servers moves with concurrency by the quotient of their changes.`;
}

/** The section's sentences: which probe the headline uses, the tick formula, and per layout the floor's share, concurrency and the widest pair. */
function probeFindings(d: ProbeData, pairs: Pair[]): string[] {
  const { t, probes } = d;
  const findings: string[] = [
    `The headline and the answer use the **fixed-count probe** (${formatInt(t.timing.calls)} sequential calls on one warm connection per trial, CPU by schedstat). The **time-window probe** is the seed write-up's: a fixed ${formatFixed(t.timing.throughputSeconds, 0)} s window per connection count, its request count, and the CPU by clock ticks with their quantisation error (one tick over the ticks counted) beside the schedstat figure.`,
    tickSentence(t.machine?.clockTicksPerSecond),
  ];
  const most = probes.reduce((a, b) => (b.connections > a.connections ? b : a), probes[0]!);
  const one = probes.find((p) => p.prefix !== "" && p.connections === 1);
  const span: [Probe, Probe] | undefined = one && most.connections > 1 ? [one, most] : undefined;
  for (const layout of d.layouts) {
    const floorLine = floorFinding(d, layout);
    if (floorLine) findings.push(floorLine);
    const concurrencyLine = span ? concurrencyFinding(d, layout, span[0], span[1]) : "";
    if (concurrencyLine) findings.push(concurrencyLine);
    const widest = pairs
      .filter((x) => x.layout === layout)
      .sort((a, b) => ratioOf(d, b.heavy, b.light, probes[0]!, false)! - ratioOf(d, a.heavy, a.light, probes[0]!, false)!)[0];
    if (widest) findings.push(pairSentence(d, widest.heavy, widest.light, span));
  }
  return findings;
}

/**
 * Build the probes section.
 * @param floor the name of the floor target
 * @param layoutOrder the page's order of layouts (its headline layout first); layouts not listed follow
 * @returns null when no configuration has a CPU figure
 */
export function a2aProbes(t: Timings, floor: string, layoutOrder: readonly string[]): ProbesView | null {
  const d = probeData(t, floor, layoutOrder);
  if (!t.configs.some((c) => d.cpu(c, d.probes[0]!) !== undefined)) return null;
  const pairs = pairsOf(d);
  const note =
    t.schemaVersion < 2
      ? "These results predate the windows' tick figures (timing schema 1): the time-window rows show the schedstat figure and the request count only; re-run the matrix for the ticks and their quantisation error."
      : "";
  return { table: probeTable(d), ratios: ratiosTable(d, pairs), findings: probeFindings(d, pairs), note };
}

/**
 * The formula of the tick figures and the tick's length, from the clock tick rate the run recorded.
 * @param hz clock ticks per second (`getconf CLK_TCK`) from `timings-run.json`, or undefined where not recorded
 */
export function tickSentence(hz: number | undefined): string {
  const formula =
    "Quantisation error = 1 tick ÷ the ticks counted × 100 %, the ticks being the server's utime + stime (`/proc/<pid>/stat`) over the probe's window; CPU per request by ticks = ticks × the tick's length ÷ requests";
  if (hz === undefined)
    return `${formula}. The tick's length was not recorded with these results (\`timings-run.json\` has no \`machine.clockTicksPerSecond\`; a new run records it).`;
  return `${formula}. One tick is 1/${formatInt(hz)} s = ${formatFixed(1000 / hz, 1000 % hz === 0 ? 0 : 2)} ms here (\`getconf CLK_TCK\` = ${formatInt(hz)}, recorded in \`timings-run.json\`).`;
}
