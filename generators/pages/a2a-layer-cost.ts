/**
 * The `a2a-layer-cost` report: what the A2A protocol layer itself costs to run, from timing results
 * only (generators/results/timings.ts). Headline server CPU per request and its ratio to the floor
 * target (and between SDK targets), latency and throughput per pinning layout, floor-subtracted
 * latency, a capacity table from declared request rates (assumptions, labelled so), the tick
 * quantisation error, and a busy-machine warning. The target named `floor` is the floor.
 */
import { definitionItems } from "../sections/definitions.js";
import { cpuBarsSvg, type CpuDatum } from "../charts/svg.js";
import type { ChartView } from "../sections/wire-charts.js";
import { toTsv } from "../../format/tsv.js";
import { mdCell, mdCode } from "../../format/markdown.js";
import { formatFixed, formatInt } from "../format.js";
import { reproduceCommand } from "../reproduce.js";
import type { TimingConfiguration, Timings } from "../results/timings.js";
import { tableView, type Column, type TableView } from "../table.js";
import { renderMarkdownTemplate } from "../templates.js";
import { buildsTable } from "../sections/builds.js";
import { RESULTS_FILES } from "../../format/layout.js";
import { intervalWords, MIN_TRIALS_FOR_BOOTSTRAP, trialInterval } from "../derive/bootstrap.js";
import { a2aProbes, type ProbesView } from "../sections/a2a-probes.js";

/** Page id, file stem of `a2a-layer-cost.md` / `.html`. */
export const A2A_LAYER_COST_ID = "a2a-layer-cost";
/** Page title. */
export const A2A_LAYER_COST_TITLE = "A2A layer cost";
/** One sentence for the index. */
export const A2A_LAYER_COST_DESCRIPTION = "Server CPU per request, latency and throughput of A2A echo agents against a floor server, pinned and unpinned.";
/** The target name treated as the floor (a constant response, no protocol work). */
export const FLOOR_TARGET = "floor";

/** µs with one decimal (`2,357.4`). */
const us = (v: number | undefined): string => (v === undefined ? "—" : formatFixed(v, 1));
/** A ratio with one decimal and `×`. */
const times = (v: number): string => `${formatFixed(v, 1)}×`;
/** A fraction in percent with two decimals. */
const pct = (v: number): string => `${formatFixed(v, 2)} %`;

/**
 * Cores needed to serve `rate` requests per second at `cpuUs` microseconds of CPU per request.
 * @param cpuUs CPU per request, µs
 * @param rate requests per second
 * @returns cores (CPU-seconds per second)
 */
export function coresAtRate(cpuUs: number, rate: number): number {
  return (cpuUs * rate) / 1e6;
}

/** One configuration's figures, medians over its ok trials (µs unless named). */
interface Cell {
  config: TimingConfiguration;
  label: string;
  cpu?: number;
  /** The interval of the CPU figure over trials (bootstrap from 5 trials on, else min–max). */
  cpuMin?: number;
  cpuMax?: number;
  /** How that interval was taken. */
  cpuInterval?: "bootstrap" | "min–max";
  ticksCpu?: number;
  quantisationPct?: number;
  requests?: number;
  clientCpu?: number;
  p50?: number;
  p95?: number;
  p99?: number;
  /** Bytes of the workload response's body (median over trials). */
  responseBytes?: number;
  trials: number;
}

/**
 * The interval printed beside a metric's median: the bootstrap interval of the median over the ok
 * trials' values from {@link MIN_TRIALS_FOR_BOOTSTRAP} trials on, else their min–max (from the
 * summary when `timings.tsv` is absent).
 */
function intervalOf(t: Timings, config: string, metric: string): { low: number; high: number; method: "bootstrap" | "min–max" } | undefined {
  const i = trialInterval(t.trialValues(config, metric));
  if (i) return i;
  const f = t.figure(config, metric);
  return f === undefined ? undefined : { low: f.min, high: f.max, method: "min–max" };
}

function cells(t: Timings): Cell[] {
  return t.configs.map((config) => {
    const f = (m: string) => t.figure(config.id, m);
    const cpu = f("cpu_per_request_us");
    const calls = f("calls");
    const interval = intervalOf(t, config.id, "cpu_per_request_us");
    return {
      config,
      label: t.targets[config.target] ?? config.target,
      cpu: cpu?.median,
      cpuMin: interval?.low,
      cpuMax: interval?.high,
      cpuInterval: interval?.method,
      ticksCpu: f("ticks_per_request_us")?.median,
      quantisationPct: f("quantisation_error_pct")?.median,
      requests: calls ? calls.median * calls.trials : undefined,
      clientCpu: f("client_cpu_per_request_us")?.median,
      p50: f("p50_us")?.median,
      p95: f("p95_us")?.median,
      p99: f("p99_us")?.median,
      responseBytes: f("response_body_bytes")?.median,
      trials: (cpu ?? f("p50_us"))?.trials ?? 0,
    };
  });
}

/** The layout the headline and the answer lead with: `pinned` when measured, else the first. */
const headlineLayoutOf = (layouts: readonly string[]): string => (layouts.includes("pinned") ? "pinned" : (layouts[0] ?? "default"));

/** Ordered unique values. */
const unique = <T>(xs: readonly T[]): T[] => [...new Set(xs)];

/** The data the template shows; every figure formatted here from results. */
interface View {
  /** The "Server CPU per request by stage" section, markdown (null without stage tables). */
  stagesSection: string | null;
  title: string;
  /** The answer: per target CPU per request in each layout with its trial range and ratio to the floor. */
  answer: TableView;
  /** The answer's short target names with their full labels, markdown. */
  answerTargets: string[];
  /** The answer's layouts, headline layout first, each with what it pins (from the run record), markdown. */
  answerLayouts: string[];
  /** Sentences: lightest and heaviest SDK per layout with their ratios to each other and the floor; whether the layouts differ beyond the trials' spread. */
  findings: string[];
  /** True when the interval is the trials' min–max (fewer than 5 trials). */
  minMax: boolean;
  /** How the interval in brackets is taken, in words. */
  intervalWords: string;
  /** The two CPU probes side by side (sections/a2a-probes.ts). */
  probes: ProbesView | null;
  cpuChart: ChartView | null;
  /** The page's definitions (sections/definitions.ts), markdown list items. */
  definitions: string[];
  trials: number;
  headlineLayout: string;
  headline: string[];
  comparisons: string[];
  cpuTable: TableView;
  layouts: Array<{ name: string; description: string; latency: TableView; throughput: TableView }>;
  floorLines: string[];
  floorSubtracted: TableView | null;
  capacity: TableView | null;
  capacityNote: string;
  /** Response body sizes per SDK target when they differ; "" otherwise. */
  sizeNote: string;
  turnLines: string[];
  load: { busy: boolean; text: string };
  failures: string[];
  environment: string[];
  builds: TableView | null;
  method: string[];
  /** The recorded command that wrote these results, in its `npx` form, as markdown code. */
  command: string;
  /** Per configuration: its id, the command that re-measures it into a scratch folder, and the figure to compare. */
  reproduce: Array<{ config: string; command: string; expected: string }>;
}

/** The metric each configuration's reproduce command prints, in order of preference. */
const CHECK_METRICS = ["cpu_per_request_us", "p50_us"] as const;

/** What every section of the page reads: the results, their cells and layouts. */
interface PageData {
  t: Timings;
  all: Cell[];
  /** Layouts in first-seen order. */
  layouts: string[];
  headlineLayout: string;
  /** The headline's layout first, then the others. */
  answerLayouts: string[];
  /** The SDK targets (every target but the floor), in first-seen order. */
  subjects: string[];
  hasFloor: boolean;
  at: (target: string, layout: string) => Cell | undefined;
}

function pageData(t: Timings): PageData {
  const all = cells(t);
  const layouts = unique(all.map((c) => c.config.layout));
  const headlineLayout = headlineLayoutOf(layouts);
  return {
    t,
    all,
    layouts,
    headlineLayout,
    answerLayouts: [headlineLayout, ...layouts.filter((l) => l !== headlineLayout)],
    subjects: unique(all.map((c) => c.config.target)).filter((n) => n !== FLOOR_TARGET),
    hasFloor: all.some((c) => c.config.target === FLOOR_TARGET),
    at: (target, layout) => all.find((c) => c.config.target === target && c.config.layout === layout),
  };
}

/** The SDK targets measured in `layout` with a CPU figure, lightest first. */
function measuredIn(d: PageData, layout: string): Cell[] {
  return d.subjects
    .map((s) => d.at(s, layout))
    .filter((c): c is Cell => c?.cpu !== undefined)
    .sort((a, b) => a.cpu! - b.cpu!);
}

/** The headline sentences: each SDK target's CPU per request per layout (headline layout first) and its ratio to the floor. */
function headlineLines(d: PageData): string[] {
  const lines: string[] = [];
  for (const layout of d.answerLayouts) {
    const floor = d.at(FLOOR_TARGET, layout);
    for (const s of d.subjects) {
      const c = d.at(s, layout);
      if (c?.cpu === undefined) continue;
      let line = `**${layout}**: ${mdCell(c.label)} spends **${us(c.cpu)} µs** of server CPU per request (${c.requests === undefined ? "—" : formatInt(c.requests)} requests; tick cross-check ${us(c.ticksCpu)} µs, ${c.quantisationPct === undefined ? "—" : pct(c.quantisationPct)} quantisation error)`;
      if (floor?.cpu !== undefined) line += `: **${times(c.cpu / floor.cpu)}** the floor's ${us(floor.cpu)} µs, or ${us(c.cpu - floor.cpu)} µs more.`;
      else line += ".";
      lines.push(line);
    }
  }
  return lines;
}

/** Every pair of SDK targets per layout, the lighter one first, so each ratio reads "heavier uses N× lighter". */
function comparisonLines(d: PageData): string[] {
  const lines: string[] = [];
  for (const layout of d.layouts) {
    const measured = measuredIn(d, layout);
    for (let i = 0; i < measured.length; i++)
      for (let j = i + 1; j < measured.length; j++) {
        const a = measured[i]!;
        const b = measured[j]!;
        lines.push(
          `**${layout}**: ${mdCell(b.label)} uses **${times(b.cpu! / a.cpu!)}** the CPU per request of ${mdCell(a.label)}, or ${us(b.cpu! - a.cpu!)} µs more.`,
        );
      }
  }
  return lines;
}

/** The CPU table: every configuration, layouts in first-seen order. */
function cpuTable(d: PageData): TableView {
  const cols: Column<Cell>[] = [
    { header: "Target", align: "left", cell: (c) => c.label },
    { header: "Layout", align: "left", cell: (c) => c.config.layout },
    { header: "CPU per request (µs)", align: "right", cell: (c) => us(c.cpu) },
    { header: "Interval (µs)", align: "right", cell: (c) => (c.cpuMin === undefined ? "—" : `${us(c.cpuMin)}–${us(c.cpuMax)}`) },
    { header: "Requests", align: "right", cell: (c) => (c.requests === undefined ? "—" : formatInt(c.requests)) },
    { header: "Ticks cross-check (µs)", align: "right", cell: (c) => us(c.ticksCpu) },
    { header: "Quantisation error", align: "right", cell: (c) => (c.quantisationPct === undefined ? "—" : pct(c.quantisationPct)) },
    {
      header: "× floor",
      align: "right",
      cell: (c) => {
        const f = d.at(FLOOR_TARGET, c.config.layout)?.cpu;
        return f === undefined || c.cpu === undefined ? "—" : times(c.cpu / f);
      },
    },
    { header: "Response body (bytes)", align: "right", cell: (c) => (c.responseBytes === undefined ? "—" : formatInt(c.responseBytes)) },
  ];
  return tableView(
    cols,
    [...d.all].sort((a, b) => d.layouts.indexOf(a.config.layout) - d.layouts.indexOf(b.config.layout)),
  );
}

/** One layout's latency table: percentiles, client CPU and the p50/p95 intervals. */
function latencyTable(t: Timings, rows: Cell[]): TableView {
  return tableView<Cell>(
    [
      { header: "Target", align: "left", cell: (c) => c.label },
      { header: "p50 (µs)", align: "right", cell: (c) => us(c.p50) },
      { header: "p95 (µs)", align: "right", cell: (c) => us(c.p95) },
      { header: "p99 (µs)", align: "right", cell: (c) => us(c.p99) },
      { header: "Client CPU per request (µs)", align: "right", cell: (c) => us(c.clientCpu) },
      ...(["p50", "p95"] as const).map(
        (q): Column<Cell> => ({
          header: `${q} interval (µs)`,
          align: "right",
          cell: (c) => {
            const f = intervalOf(t, c.config.id, `${q}_us`);
            return f === undefined ? "—" : `${us(f.low)}–${us(f.high)}`;
          },
        }),
      ),
    ],
    rows,
  );
}

/** One layout's throughput table: a row per target and connection count. */
function throughputTable(t: Timings, rows: Cell[]): TableView {
  const g = (r: { c: Cell; n: number }, m: string) => t.figure(r.c.config.id, `tput_c${r.n}_${m}`)?.median;
  const fixed = (v: number | undefined, digits: number): string => (v === undefined ? "—" : formatFixed(v, digits));
  return tableView<{ c: Cell; n: number }>(
    [
      { header: "Target", align: "left", cell: (r) => r.c.label },
      { header: "Connections", align: "right", cell: (r) => formatInt(r.n) },
      { header: "Requests/s", align: "right", cell: (r) => fixed(g(r, "requests_per_s"), 0) },
      { header: "p50 (µs)", align: "right", cell: (r) => us(g(r, "p50_us")) },
      { header: "p99 (µs)", align: "right", cell: (r) => us(g(r, "p99_us")) },
      { header: "Server CPU per request (µs)", align: "right", cell: (r) => us(g(r, "cpu_per_request_us")) },
      { header: "Client CPU per request (µs)", align: "right", cell: (r) => us(g(r, "client_cpu_per_request_us")) },
      {
        header: "Client CPU (cores)",
        align: "right",
        cell: (r) => {
          const c = g(r, "client_cpu_per_request_us");
          const rate = g(r, "requests_per_s");
          return c === undefined || rate === undefined ? "—" : formatFixed(coresAtRate(c, rate), 2);
        },
      },
      { header: "Errors", align: "right", cell: (r) => (g(r, "errors") === undefined ? "—" : formatInt(g(r, "errors")!)) },
    ],
    rows.flatMap((c) => (t.timing.connections ?? []).map((n) => ({ c, n }))),
  );
}

/** Per layout: what it pins, its latency table and its throughput table. */
function layoutViews(d: PageData): View["layouts"] {
  return d.layouts.map((layout) => {
    const rows = d.all.filter((c) => c.config.layout === layout);
    return {
      name: layout,
      description: mdCell(d.t.layouts[layout] ?? "no CPU pinning"),
      latency: latencyTable(d.t, rows),
      throughput: throughputTable(d.t, rows),
    };
  });
}

/** The floor's sentence and the floor-subtracted table (none without a floor target). */
function floorSection(d: PageData): Pick<View, "floorLines" | "floorSubtracted"> {
  if (!d.hasFloor) return { floorLines: [], floorSubtracted: null };
  const rows = d.layouts.flatMap((layout) => d.subjects.map((s) => ({ s: d.at(s, layout), f: d.at(FLOOR_TARGET, layout), layout }))).filter((r) => r.s && r.f);
  const less = (a: number | undefined, b: number | undefined): string => (a === undefined || b === undefined ? "—" : us(a - b));
  const floorSubtracted = tableView(
    [
      { header: "Target", align: "left", cell: (r) => r.s!.label },
      { header: "Layout", align: "left", cell: (r) => r.layout },
      { header: "p50 − floor p50 (µs)", align: "right", cell: (r) => less(r.s!.p50, r.f!.p50) },
      { header: "p99 − floor p99 (µs)", align: "right", cell: (r) => less(r.s!.p99, r.f!.p99) },
      { header: "CPU − floor CPU (µs)", align: "right", cell: (r) => less(r.s!.cpu, r.f!.cpu) },
    ],
    rows,
  );
  const f = d.at(FLOOR_TARGET, d.headlineLayout);
  const floorLines = f
    ? [
        `In the ${d.headlineLayout} layout the floor answers with p50 ${us(f.p50)} µs and spends ${us(f.cpu)} µs of server CPU per request: that much of every other target's figures is client, loopback, kernel and node:http cost, not protocol work.`,
      ]
    : [];
  return { floorLines, floorSubtracted };
}

/** Cores needed at the declared (assumed) request rates per target, and the note on what was actually driven. */
function capacitySection(d: PageData): Pick<View, "capacity" | "capacityNote"> {
  const rates = d.t.assumptions.capacityRequestsPerSecond;
  const capTargets = [...d.subjects, ...(d.hasFloor ? [FLOOR_TARGET] : [])]
    .map((s) => d.at(s, d.headlineLayout))
    .filter((c): c is Cell => c?.cpu !== undefined);
  if (!capTargets.length) return { capacity: null, capacityNote: "" };
  const capacity = tableView<number>(
    [
      { header: "Rate (req/s, assumed)", align: "right", cell: (r) => formatInt(r) },
      ...capTargets.map((c) => ({
        header: `${mdCell(c.label)} (cores)`,
        align: "right" as const,
        cell: (r: number) => formatFixed(coresAtRate(c.cpu!, r), 3),
      })),
    ],
    rates,
  );
  const maxConn = Math.max(0, ...(d.t.timing.connections ?? []));
  const driven = capTargets
    .filter((c) => c.config.target !== FLOOR_TARGET)
    .map((c) => {
      const v = d.t.figure(c.config.id, `tput_c${maxConn}_requests_per_s`)?.median;
      return v === undefined ? undefined : `${mdCell(c.label)} sustained ${formatFixed(v, 0)} req/s with ${maxConn} connections`;
    })
    .filter((x): x is string => x !== undefined);
  const top = rates[rates.length - 1];
  const other = d.layouts
    .filter((l) => l !== d.headlineLayout)
    .flatMap((l) =>
      d.subjects
        .map((s) => d.at(s, l))
        .filter((c): c is Cell => c?.cpu !== undefined)
        .map((c) => `${formatFixed(coresAtRate(c.cpu!, top ?? 0), 3)} cores for ${mdCell(c.label)} (${l})`),
    );
  const capacityNote = `No server was driven at these rates${driven.length ? `: in the throughput test ${driven.join("; ")}` : ""}, so rows above that describe several processes' worth of CPU, not the one process measured.${other.length && top !== undefined ? ` In the other layout the ${formatInt(top)} req/s row is ${other.join(", ")}.` : ""}`;
  return { capacity, capacityNote };
}

/** Each SDK target's CPU per request as a share of an agent turn of the declared (assumed) lengths. */
function turnLines(d: PageData): string[] {
  const turns = d.t.assumptions.agentTurnSeconds;
  const lo = Math.min(...turns);
  const hi = Math.max(...turns);
  return d.subjects.flatMap((s) => {
    const c = d.at(s, d.headlineLayout);
    if (c?.cpu === undefined) return [];
    return [
      `${mdCell(c.label)}: ${us(c.cpu)} µs of CPU per request is ${formatFixed((c.cpu / (hi * 1e6)) * 100, 4)} %–${formatFixed((c.cpu / (lo * 1e6)) * 100, 4)} % of an agent turn of ${formatFixed(lo, 0)}–${formatFixed(hi, 0)} s (assumed turn length).`,
    ];
  });
}

/** The note on response sizes when the SDK targets' differ ("" when they do not). */
function sizeNote(d: PageData): string {
  const sized = d.subjects.map((s) => d.at(s, d.headlineLayout)).filter((c): c is Cell => c?.responseBytes !== undefined);
  return sized.length > 1 && new Set(sized.map((c) => c.responseBytes)).size > 1
    ? `Response sizes differ, an uncontrolled factor: ${sized.map((c) => `${formatInt(c.responseBytes!)} body bytes from ${mdCell(c.label)}`).join(", ")} (the request is byte-identical for every target). Some small part of a gap is payload size, not protocol handling.`
    : "";
}

/** The machine's allowed cores (or all its cores), 0 when not recorded. */
const coresOf = (t: Timings): number => t.machine?.allowedCores?.length ?? t.machine?.cores ?? 0;

/** Whether any trial started on a busy machine, in a sentence. */
function loadView(t: Timings): View["load"] {
  const loads = t.trials.map((x) => x.load1);
  const busyCount = t.trials.filter((x) => x.busy).length;
  const cores = coresOf(t);
  const loadRange = loads.length ? `${formatFixed(Math.min(...loads), 2)}–${formatFixed(Math.max(...loads), 2)}` : "not recorded";
  return busyCount
    ? {
        busy: true,
        text: `**Busy machine.** ${busyCount} of ${t.trials.length} trials started with a 1-minute load average above the ${cores} allowed cores (load ${loadRange} before the trials). Other work competed for the CPUs: latencies and throughput are worse than on an idle machine, and CPU per request is inflated by cache and frequency contention. Trials were interleaved so the contention spread over every target, which keeps ratios more trustworthy than absolute figures.`,
      }
    : { busy: false, text: `No trial started on a busy machine (1-minute load ${loadRange} before the trials, ${cores} allowed cores).` };
}

/** The environment block: machine, versions, commit, targets, and what each target said on start-up (its port made generic). */
function environmentLines(d: PageData): string[] {
  const { t } = d;
  const m = t.machine;
  const lines = [
    `Machine: ${mdCell(m?.cpuModel ?? "unknown")}, ${m?.cores ?? "?"} logical CPUs (${coresOf(t)} allowed), frequency governor ${mdCell(m?.governor ?? "unknown")}.`,
    `Node ${mdCell(t.node)}${t.tool ? `, ${mdCell(`${t.tool.name} ${t.tool.version}`)}` : ""}; run started ${mdCell(t.startedAt)}.`,
    t.git
      ? `wirecost commit ${mdCode(t.git.commit)}${t.git.dirty ? " (with uncommitted changes)" : ""}; matrix ${mdCode(t.matrix)}.`
      : `Matrix ${mdCode(t.matrix)}; these results predate the recording of the git commit.`,
    `Targets: ${unique(d.all.map((c) => c.config.target))
      .map((n) => `${mdCode(n)} = ${mdCell(t.targets[n] ?? n)}`)
      .join("; ")}.`,
  ];
  const targetOf = (config: string): string | undefined => t.configs.find((y) => y.id === config)?.target;
  const started = new Map<string, Set<string>>();
  for (const x of t.trials) {
    const target = targetOf(x.config);
    if (!target || !x.listeningLine) continue;
    started.set(target, (started.get(target) ?? new Set<string>()).add(x.listeningLine.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:PORT")));
  }
  for (const [target, said] of started) {
    const mine = t.trials.filter((x) => targetOf(x.config) === target);
    lines.push(
      `${mdCode(target)} said on start-up, in ${formatInt(mine.filter((x) => x.listeningLine).length)} of ${formatInt(mine.length)} trials: ${[...said].map(mdCode).join(", ")}.`,
    );
  }
  return lines;
}

/** How the trials were run, the CPU method and the percentile method, in sentences. */
function methodLines(t: Timings): string[] {
  const connections = t.timing.connections ?? [];
  return [
    `Each trial starts a fresh target process, pins it per its layout, discards ${formatInt(t.timing.warmupCalls)} warm-up calls, then times ${formatInt(t.timing.calls)} sequential calls on one warm keep-alive connection, then runs ${formatFixed(t.timing.throughputSeconds, 0)} s throughput windows at ${connections.map((n) => formatInt(n)).join(" and ")} connection(s). Trials are run in ${mdCell(t.timing.order)} order across configurations; every response is validated (a JSON-RPC error inside HTTP 200 fails the trial).`,
    `CPU: ${mdCell(t.cpuMethod)}. The quantisation error applies to the tick cross-check; the schedstat figure has nanosecond resolution.`,
    `Percentiles: ${mdCell(t.percentileMethod)}.`,
  ];
}

/** The targets of the answer: the SDK targets, then the floor. */
const answerRows = (d: PageData): string[] => [...d.subjects, ...(d.hasFloor ? [FLOOR_TARGET] : [])];

/** The answer table: per target, each layout's CPU per request with its interval and its ratio to the floor. */
function answerTable(d: PageData): TableView {
  return tableView<string>(
    [
      { header: "Target", align: "left", cell: (n) => n },
      ...d.answerLayouts.flatMap((layout): Column<string>[] => [
        {
          header: `${mdCell(layout)}: CPU per request (µs, interval)`,
          align: "right",
          cell: (n) => {
            const c = d.at(n, layout);
            return c?.cpu === undefined ? "—" : `${us(c.cpu)} (${us(c.cpuMin)}–${us(c.cpuMax)})`;
          },
        },
        {
          header: `${mdCell(layout)}: × floor`,
          align: "right",
          cell: (n) => {
            const c = d.at(n, layout)?.cpu;
            const f = d.at(FLOOR_TARGET, layout)?.cpu;
            return c === undefined || f === undefined ? "—" : times(c / f);
          },
        },
      ]),
    ],
    answerRows(d).slice(0, 12),
  );
}

/** Per layout, the lightest and the heaviest SDK target with their ratios to each other and to the floor. */
function extremesFindings(d: PageData): string[] {
  const out: string[] = [];
  for (const layout of d.answerLayouts) {
    const measured = measuredIn(d, layout);
    const lightest = measured[0];
    const heaviest = measured[measured.length - 1];
    const floor = d.at(FLOOR_TARGET, layout)?.cpu;
    if (lightest === undefined || heaviest === undefined) continue;
    const vsFloor = (c: Cell) => (floor === undefined ? "" : `, ${times(c.cpu! / floor)} the floor`);
    const name = (c: Cell) => mdCode(c.config.target);
    out.push(
      measured.length > 1
        ? `**${mdCell(layout)}**: ${name(lightest)} costs the least server CPU per request (${us(lightest.cpu)} µs${vsFloor(lightest)}) and ${name(heaviest)} the most (${us(heaviest.cpu)} µs${vsFloor(heaviest)}, ${times(heaviest.cpu! / lightest.cpu!)} the lightest).`
        : `**${mdCell(layout)}**: ${name(lightest)} spends ${us(lightest.cpu)} µs of server CPU per request${vsFloor(lightest)}.`,
    );
  }
  return out;
}

/** Between the first two layouts: a target whose intervals overlap is not said to differ. */
function layoutFindings(d: PageData): string[] {
  const [first, second] = d.answerLayouts;
  if (first === undefined || second === undefined) return [];
  const rows = answerRows(d);
  const overlap: string[] = [];
  const apart: string[] = [];
  for (const n of rows) {
    const a = d.at(n, first);
    const b = d.at(n, second);
    if (a?.cpuMin === undefined || a.cpuMax === undefined || b?.cpuMin === undefined || b.cpuMax === undefined) continue;
    if (a.cpuMin <= b.cpuMax && b.cpuMin <= a.cpuMax) overlap.push(mdCode(n));
    else apart.push(`${mdCode(n)} (${us(a.cpu)} vs ${us(b.cpu)} µs, intervals ${us(a.cpuMin)}–${us(a.cpuMax)} and ${us(b.cpuMin)}–${us(b.cpuMax)} µs)`);
  }
  const out: string[] = [];
  if (overlap.length > 0)
    out.push(
      `${overlap.length === rows.length ? "For every target" : `For ${overlap.join(", ")}`}, the intervals in the ${mdCell(first)} and ${mdCell(second)} layouts overlap: the layouts do not differ beyond the spread of the trials, so a target's figures in the two layouts are one finding, not two.`,
    );
  if (apart.length > 0) out.push(`The ${mdCell(first)} layout differs from ${mdCell(second)} beyond the intervals for ${apart.join("; ")}.`);
  return out;
}

/** Per configuration: the command that re-measures it into a scratch folder and the figure to compare. */
function reproduceRows(t: Timings): View["reproduce"] {
  return t.configs.map((c) => {
    const metric = CHECK_METRICS.find((m) => t.figure(c.id, m) !== undefined) ?? CHECK_METRICS[0];
    const f = t.figure(c.id, metric);
    return {
      config: mdCode(c.id),
      command: mdCode(reproduceCommand(c.id, t.matrix, RESULTS_FILES.timingsSummary, metric)),
      expected: f === undefined ? "no figure in these results (no ok trial)" : `median ${mdCode(String(f.median))} (${mdCode(metric)}) here`,
    };
  });
}

/**
 * Build the page markdown from timing results: one function per section above, the template
 * (templates/a2a-layer-cost.md.njk) lays them out.
 * @param cpuChart the CPU-per-request chart of {@link a2aCpuChart}, when one was drawn
 * @param stagesSection the "Server CPU per request by stage" section (generators/sections/stage-tables.ts), markdown, when the folder holds stage tables
 * @throws Error never for well-formed results; missing figures print as `—`
 */
export function a2aLayerCostMarkdown(t: Timings, cpuChart?: ChartView, stagesSection?: string): string {
  const d = pageData(t);
  const labelOf = (n: string): string => d.all.find((c) => c.config.target === n)?.label ?? n;
  const view: View = {
    title: A2A_LAYER_COST_TITLE,
    answer: answerTable(d),
    answerTargets: answerRows(d).map((n) => `${mdCode(n)}: ${mdCell(labelOf(n))}`),
    answerLayouts: d.answerLayouts.map((l) => `**${mdCell(l)}**: ${t.layouts[l] === undefined ? "no CPU pinning" : mdCode(t.layouts[l])}`),
    findings: [...extremesFindings(d), ...layoutFindings(d)],
    minMax: d.all.some((c) => c.cpuInterval === "min–max"),
    intervalWords: intervalWords(d.all.flatMap((c) => c.cpuInterval ?? [])),
    probes: a2aProbes(t, FLOOR_TARGET, d.answerLayouts),
    cpuChart: cpuChart ?? null,
    definitions: definitionItems(["floor", "trial", "percentile", "busy"]),
    trials: Math.max(0, ...d.all.map((c) => c.trials)),
    headlineLayout: d.headlineLayout,
    headline: headlineLines(d),
    comparisons: comparisonLines(d),
    cpuTable: cpuTable(d),
    layouts: layoutViews(d),
    ...floorSection(d),
    ...capacitySection(d),
    sizeNote: sizeNote(d),
    turnLines: turnLines(d),
    load: loadView(t),
    failures: t.trials.filter((x) => x.status !== "ok").map((x) => `${mdCode(x.config)} trial ${x.trial}: ${mdCell(x.error ?? x.status)}`),
    environment: environmentLines(d),
    builds: buildsTable(t.builds) ?? null,
    stagesSection: stagesSection ?? null,
    method: methodLines(t),
    command: mdCode(t.command.startsWith("wirecost ") ? `npx ${t.command}` : t.command),
    reproduce: reproduceRows(t),
  };
  return renderMarkdownTemplate("a2a-layer-cost.md.njk", view);
}

/**
 * The CPU-per-request chart: one bar per target (the floor included, drawn in grey) per layout
 * panel, with the interval over trials as an error bar, and its data as a TSV.
 * @returns undefined when no configuration has a CPU figure
 */
export async function a2aCpuChart(t: Timings): Promise<{ view: ChartView; assets: Array<{ file: string; content: string }> } | undefined> {
  const all = cells(t);
  const layouts = unique(all.map((c) => c.config.layout));
  // The headline's layout (pinned) first, as in the answer table.
  const first = headlineLayoutOf(layouts);
  const data: CpuDatum[] = [...all.filter((c) => c.config.layout === first), ...all.filter((c) => c.config.layout !== first)]
    .filter((c) => c.cpu !== undefined)
    .map((c) => ({
      target: c.config.target,
      layout: c.config.layout,
      cpuUs: c.cpu ?? 0,
      minUs: c.cpuMin ?? c.cpu ?? 0,
      maxUs: c.cpuMax ?? c.cpu ?? 0,
      floor: c.config.target === FLOOR_TARGET,
    }));
  if (data.length === 0) return undefined;
  const svg = `${A2A_LAYER_COST_ID}-cpu.svg`;
  const tsv = `${A2A_LAYER_COST_ID}-cpu.tsv`;
  return {
    view: {
      svg,
      data: tsv,
      alt: "Server CPU per request per target, one panel per pinning layout, bars at the median of the trials with the interval over trials as error bars, the floor in grey",
    },
    assets: [
      { file: svg, content: await cpuBarsSvg(data) },
      {
        file: tsv,
        content: toTsv(
          ["target", "layout", "cpu_per_request_us", "interval_low_us", "interval_high_us"],
          data.map((d) => [d.target, d.layout, d.cpuUs, d.minUs, d.maxUs]),
        ),
      },
    ],
  };
}
