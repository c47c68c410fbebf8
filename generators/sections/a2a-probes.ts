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

/**
 * Build the probes section.
 * @param floor the name of the floor target
 * @param layoutOrder the page's order of layouts (its headline layout first); layouts not listed follow
 * @returns null when no configuration has a CPU figure
 */
export function a2aProbes(t: Timings, floor: string, layoutOrder: readonly string[]): ProbesView | null {
  const probes = probesOf(t);
  const cpu = (c: TimingConfiguration, p: Probe) => t.figure(c.id, `${p.prefix}cpu_per_request_us`)?.median;
  if (!t.configs.some((c) => cpu(c, probes[0]!) !== undefined)) return null;
  const layouts = [...new Set([...layoutOrder, ...t.configs.map((c) => c.layout)])].filter((l) => t.configs.some((c) => c.layout === l));
  const targets = [...new Set(t.configs.map((c) => c.target))];
  const at = (target: string, layout: string) => t.configs.find((c) => c.target === target && c.layout === layout);
  const floorCpu = (layout: string, p: Probe) => {
    const f = at(floor, layout);
    return f ? cpu(f, p) : undefined;
  };
  const rows = layouts.flatMap((layout) =>
    targets.flatMap((target) => {
      const c = at(target, layout);
      return c ? probes.map((p) => ({ c, p })) : [];
    }),
  );
  const table = tableView<{ c: TimingConfiguration; p: Probe }>(
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
          const f = t.figure(r.c.id, `${r.p.prefix}cpu_per_request_us`);
          if (i) return `${us(i.low)}–${us(i.high)}`;
          return f === undefined ? "—" : `${us(f.min)}–${us(f.max)}`;
        },
      },
      {
        header: "Ticks per trial (median)",
        align: "right",
        cell: (r) => {
          const v = t.figure(r.c.id, `${r.p.prefix}ticks`)?.median;
          return v === undefined ? "—" : formatFixed(v, Number.isInteger(v) ? 0 : 1);
        },
      },
      { header: "CPU per request, ticks (µs)", align: "right", cell: (r) => us(t.figure(r.c.id, `${r.p.prefix}ticks_per_request_us`)?.median) },
      {
        header: "Quantisation error",
        align: "right",
        cell: (r) => {
          // One tick over the median ticks counted, from the ticks themselves: the stored per cent
          // keeps 3 decimals, and rounding it again to 2 could move the last digit (1.2048 → 1.205 → 1.21).
          const ticks = t.figure(r.c.id, `${r.p.prefix}ticks`)?.median;
          const v = ticks !== undefined && ticks > 0 ? 100 / ticks : t.figure(r.c.id, `${r.p.prefix}quantisation_error_pct`)?.median;
          return v === undefined || !Number.isFinite(v) ? "—" : `${formatFixed(v, 2)} %`;
        },
      },
      {
        header: "− floor (µs)",
        align: "right",
        cell: (r) => {
          const f = floorCpu(r.c.layout, r.p);
          const v = cpu(r.c, r.p);
          return r.c.target === floor || f === undefined || v === undefined ? "—" : us(v - f);
        },
      },
      {
        header: "× floor",
        align: "right",
        cell: (r) => {
          const f = floorCpu(r.c.layout, r.p);
          const v = cpu(r.c, r.p);
          return r.c.target === floor || f === undefined || v === undefined ? "—" : times(v / f);
        },
      },
    ],
    rows,
  );

  const subjects = targets.filter((n) => n !== floor);
  const pairs: Array<{ layout: string; heavy: TimingConfiguration; light: TimingConfiguration }> = [];
  for (const layout of layouts) {
    const measured = subjects
      .map((s) => at(s, layout))
      .filter((c): c is TimingConfiguration => c !== undefined && cpu(c, probes[0]!) !== undefined)
      .sort((a, b) => cpu(b, probes[0]!)! - cpu(a, probes[0]!)!);
    for (let i = 0; i < measured.length; i++) for (let j = i + 1; j < measured.length; j++) pairs.push({ layout, heavy: measured[i]!, light: measured[j]! });
  }
  const ratio = (heavy: TimingConfiguration, light: TimingConfiguration, p: Probe, subtract: boolean): number | undefined => {
    const h = cpu(heavy, p);
    const l = cpu(light, p);
    const f = subtract ? floorCpu(heavy.layout, p) : 0;
    return h === undefined || l === undefined || f === undefined ? undefined : (h - f) / (l - f);
  };
  /** The widest pair of a layout under every probe, raw and floor-subtracted, and what concurrency does to its ratio (from `from` to `to` connections). */
  const pairSentence = (heavy: TimingConfiguration, light: TimingConfiguration, span: [Probe, Probe] | undefined): string => {
    const list = (subtract: boolean) => probes.map((p) => `${times(ratio(heavy, light, p, subtract))} (${p.name})`).join(", ");
    let text = `**${mdCell(heavy.layout)}**, the widest pair, ${mdCode(heavy.target)} : ${mdCode(light.target)}: ${list(false)}; with the floor's CPU per request subtracted from both, ${list(true)}.`;
    const [from, to] = span ?? [];
    const h0 = from && cpu(heavy, from);
    const h1 = to && cpu(heavy, to);
    const l0 = from && cpu(light, from);
    const l1 = to && cpu(light, to);
    if (from && to && h0 && h1 && l0 && l1)
      text += ` From ${formatInt(from.connections)} to ${formatInt(to.connections)} connections ${mdCode(heavy.target)}'s CPU per request is multiplied by ${formatFixed(h1 / h0, 2)} and ${mdCode(light.target)}'s by ${formatFixed(l1 / l0, 2)}, so the ratio between them by ${formatFixed(h1 / h0 / (l1 / l0), 2)}.`;
    return text;
  };
  const ratios =
    pairs.length === 0
      ? null
      : tableView(
          [
            { header: "Layout", align: "left", cell: (r: (typeof pairs)[number]) => r.layout },
            { header: "Heavier : lighter", align: "left", cell: (r: (typeof pairs)[number]) => `${r.heavy.target} : ${r.light.target}` },
            ...probes.map((p) => ({
              header: `${p.name}`,
              align: "right" as const,
              cell: (r: (typeof pairs)[number]) => times(ratio(r.heavy, r.light, p, false)),
            })),
            ...probes.map((p) => ({
              header: `${p.name}, floor subtracted`,
              align: "right" as const,
              cell: (r: (typeof pairs)[number]) => times(ratio(r.heavy, r.light, p, true)),
            })),
          ],
          pairs.slice(0, 12),
        );

  const findings: string[] = [
    `The headline and the answer use the **fixed-count probe** (${formatInt(t.timing.calls)} sequential calls on one warm connection per trial, CPU by schedstat). The **time-window probe** is the seed write-up's: a fixed ${formatFixed(t.timing.throughputSeconds, 0)} s window per connection count, its request count, and the CPU by clock ticks with their quantisation error (one tick over the ticks counted) beside the schedstat figure.`,
  ];
  findings.push(tickSentence(t.machine?.clockTicksPerSecond));
  const most = probes.reduce((a, b) => (b.connections > a.connections ? b : a), probes[0]!);
  const one = probes.find((p) => p.prefix !== "" && p.connections === 1);
  for (const layout of layouts) {
    const f = probes.map((p) => ({ p, v: floorCpu(layout, p) })).filter((x): x is { p: Probe; v: number } => x.v !== undefined);
    if (f.length > 0) {
      const lightest = subjects
        .map((s) => at(s, layout))
        .filter((c): c is TimingConfiguration => c !== undefined && cpu(c, probes[0]!) !== undefined)
        .sort((a, b) => cpu(a, probes[0]!)! - cpu(b, probes[0]!)!)[0];
      const share = lightest
        ? `; that is ${f
            .map((x) => {
              const v = cpu(lightest, x.p);
              return v === undefined ? undefined : `${formatFixed((x.v / v) * 100, 0)} %`;
            })
            .filter((x) => x !== undefined)
            .join(
              ", ",
            )} of the lightest SDK's (${mdCode(lightest.target)}) figure under the same probes, so every ratio to it is pulled towards 1 by that much shared cost, and the floor-subtracted ratios are larger`
        : "";
      findings.push(
        `**${mdCell(layout)}**: the floor itself spends ${f.map((x) => `${us(x.v)} µs (${x.p.name})`).join(", ")} of server CPU per request${share}.`,
      );
    }
    if (one && most.connections > 1) {
      const changes = subjects
        .concat([floor])
        .map((s) => at(s, layout))
        .filter((c): c is TimingConfiguration => c !== undefined)
        .map((c) => ({ c, a: cpu(c, one), b: cpu(c, most) }))
        .filter((x): x is { c: TimingConfiguration; a: number; b: number } => x.a !== undefined && x.b !== undefined);
      if (changes.length > 0)
        findings.push(
          `**${mdCell(layout)}**, concurrency: from 1 to ${formatInt(most.connections)} connections the CPU per request changes by ${changes.map((x) => `${signedPct(((x.b - x.a) / x.a) * 100)} for ${mdCode(x.c.target)} (${us(x.a)} → ${us(x.b)} µs)`).join(", ")}; a ratio between two servers moves with concurrency by the quotient of their changes.`,
        );
    }
    const widest = pairs
      .filter((x) => x.layout === layout)
      .sort((a, b) => ratio(b.heavy, b.light, probes[0]!, false)! - ratio(a.heavy, a.light, probes[0]!, false)!)[0];
    if (widest) findings.push(pairSentence(widest.heavy, widest.light, one && most.connections > 1 ? [one, most] : undefined));
  }
  const note =
    t.schemaVersion < 2
      ? "These results predate the windows' tick figures (timing schema 1): the time-window rows show the schedstat figure and the request count only; re-run the matrix for the ticks and their quantisation error."
      : "";
  return { table, ratios, findings, note };
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
