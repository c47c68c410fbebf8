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

/**
 * Build the page markdown from timing results.
 * @param cpuChart the CPU-per-request chart of {@link a2aCpuChart}, when one was drawn
 * @param stagesSection the "Server CPU per request by stage" section (generators/sections/stage-tables.ts), markdown, when the folder holds stage tables
 * @throws Error never for well-formed results; missing figures print as `—`
 */
export function a2aLayerCostMarkdown(t: Timings, cpuChart?: ChartView, stagesSection?: string): string {
  const all = cells(t);
  const layouts = unique(all.map((c) => c.config.layout));
  const headlineLayout = headlineLayoutOf(layouts);
  const at = (target: string, layout: string) => all.find((c) => c.config.target === target && c.config.layout === layout);
  const subjects = unique(all.map((c) => c.config.target)).filter((n) => n !== FLOOR_TARGET);
  const hasFloor = all.some((c) => c.config.target === FLOOR_TARGET);
  const trials = Math.max(0, ...all.map((c) => c.trials));

  const headline: string[] = [];
  for (const layout of [headlineLayout, ...layouts.filter((l) => l !== headlineLayout)]) {
    const floor = at(FLOOR_TARGET, layout);
    for (const s of subjects) {
      const c = at(s, layout);
      if (c?.cpu === undefined) continue;
      let line = `**${layout}**: ${mdCell(c.label)} spends **${us(c.cpu)} µs** of server CPU per request (${c.requests === undefined ? "—" : formatInt(c.requests)} requests; tick cross-check ${us(c.ticksCpu)} µs, ${c.quantisationPct === undefined ? "—" : pct(c.quantisationPct)} quantisation error)`;
      if (floor?.cpu !== undefined) line += `: **${times(c.cpu / floor.cpu)}** the floor's ${us(floor.cpu)} µs, or ${us(c.cpu - floor.cpu)} µs more.`;
      else line += ".";
      headline.push(line);
    }
  }
  const comparisons: string[] = [];
  for (const layout of layouts) {
    // Every pair of SDK targets, the lighter one first, so each ratio reads "heavier uses N× lighter".
    const measured = subjects
      .map((s) => at(s, layout))
      .filter((c): c is Cell => c?.cpu !== undefined)
      .sort((a, b) => a.cpu! - b.cpu!);
    for (let i = 0; i < measured.length; i++) {
      for (let j = i + 1; j < measured.length; j++) {
        const a = measured[i]!;
        const b = measured[j]!;
        comparisons.push(
          `**${layout}**: ${mdCell(b.label)} uses **${times(b.cpu! / a.cpu!)}** the CPU per request of ${mdCell(a.label)}, or ${us(b.cpu! - a.cpu!)} µs more.`,
        );
      }
    }
  }

  const cpuCols: Column<Cell>[] = [
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
        const f = at(FLOOR_TARGET, c.config.layout)?.cpu;
        return f === undefined || c.cpu === undefined ? "—" : times(c.cpu / f);
      },
    },
    { header: "Response body (bytes)", align: "right", cell: (c) => (c.responseBytes === undefined ? "—" : formatInt(c.responseBytes)) },
  ];
  const ordered = [...all].sort((a, b) => layouts.indexOf(a.config.layout) - layouts.indexOf(b.config.layout));

  const connections = t.timing.connections ?? [];
  const layoutViews = layouts.map((layout) => {
    const rows = all.filter((c) => c.config.layout === layout);
    const latency = tableView<Cell>(
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
    const tputRows = rows.flatMap((c) => connections.map((n) => ({ c, n })));
    const g = (r: { c: Cell; n: number }, m: string) => t.figure(r.c.config.id, `tput_c${r.n}_${m}`)?.median;
    const throughput = tableView<{ c: Cell; n: number }>(
      [
        { header: "Target", align: "left", cell: (r) => r.c.label },
        { header: "Connections", align: "right", cell: (r) => formatInt(r.n) },
        {
          header: "Requests/s",
          align: "right",
          cell: (r) => {
            const v = g(r, "requests_per_s");
            return v === undefined ? "—" : formatFixed(v, 0);
          },
        },
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
        {
          header: "Errors",
          align: "right",
          cell: (r) => {
            const v = g(r, "errors");
            return v === undefined ? "—" : formatInt(v);
          },
        },
      ],
      tputRows,
    );
    return { name: layout, description: mdCell(t.layouts[layout] ?? "no CPU pinning"), latency, throughput };
  });

  const floorLines: string[] = [];
  let floorSubtracted: TableView | undefined;
  if (hasFloor) {
    const rows = layouts.flatMap((layout) => subjects.map((s) => ({ s: at(s, layout), f: at(FLOOR_TARGET, layout), layout }))).filter((r) => r.s && r.f);
    floorSubtracted = tableView(
      [
        { header: "Target", align: "left", cell: (r) => r.s!.label },
        { header: "Layout", align: "left", cell: (r) => r.layout },
        { header: "p50 − floor p50 (µs)", align: "right", cell: (r) => (r.s!.p50 === undefined || r.f!.p50 === undefined ? "—" : us(r.s!.p50 - r.f!.p50)) },
        { header: "p99 − floor p99 (µs)", align: "right", cell: (r) => (r.s!.p99 === undefined || r.f!.p99 === undefined ? "—" : us(r.s!.p99 - r.f!.p99)) },
        { header: "CPU − floor CPU (µs)", align: "right", cell: (r) => (r.s!.cpu === undefined || r.f!.cpu === undefined ? "—" : us(r.s!.cpu - r.f!.cpu)) },
      ],
      rows,
    );
    const f = at(FLOOR_TARGET, headlineLayout);
    if (f)
      floorLines.push(
        `In the ${headlineLayout} layout the floor answers with p50 ${us(f.p50)} µs and spends ${us(f.cpu)} µs of server CPU per request: that much of every other target's figures is client, loopback, kernel and node:http cost, not protocol work.`,
      );
  }

  let capacity: TableView | undefined;
  let capacityNote = "";
  const rates = t.assumptions.capacityRequestsPerSecond;
  const capTargets = [...subjects, ...(hasFloor ? [FLOOR_TARGET] : [])].map((s) => at(s, headlineLayout)).filter((c): c is Cell => c?.cpu !== undefined);
  if (capTargets.length) {
    capacity = tableView<number>(
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
    const maxConn = Math.max(0, ...connections);
    const driven = capTargets
      .filter((c) => c.config.target !== FLOOR_TARGET)
      .map((c) => {
        const v = t.figure(c.config.id, `tput_c${maxConn}_requests_per_s`)?.median;
        return v === undefined ? undefined : `${mdCell(c.label)} sustained ${formatFixed(v, 0)} req/s with ${maxConn} connections`;
      })
      .filter((x): x is string => x !== undefined);
    const top = rates[rates.length - 1];
    const other = layouts
      .filter((l) => l !== headlineLayout)
      .flatMap((l) =>
        subjects
          .map((s) => at(s, l))
          .filter((c): c is Cell => c?.cpu !== undefined)
          .map((c) => `${formatFixed(coresAtRate(c.cpu!, top ?? 0), 3)} cores for ${mdCell(c.label)} (${l})`),
      );
    capacityNote = `No server was driven at these rates${driven.length ? `: in the throughput test ${driven.join("; ")}` : ""}, so rows above that describe several processes' worth of CPU, not the one process measured.${other.length && top !== undefined ? ` In the other layout the ${formatInt(top)} req/s row is ${other.join(", ")}.` : ""}`;
  }

  const turnLines: string[] = [];
  const turns = t.assumptions.agentTurnSeconds;
  const lo = Math.min(...turns);
  const hi = Math.max(...turns);
  for (const s of subjects) {
    const c = at(s, headlineLayout);
    if (c?.cpu === undefined) continue;
    turnLines.push(
      `${mdCell(c.label)}: ${us(c.cpu)} µs of CPU per request is ${formatFixed((c.cpu / (hi * 1e6)) * 100, 4)} %–${formatFixed((c.cpu / (lo * 1e6)) * 100, 4)} % of an agent turn of ${formatFixed(lo, 0)}–${formatFixed(hi, 0)} s (assumed turn length).`,
    );
  }

  const sized = subjects.map((s) => at(s, headlineLayout)).filter((c): c is Cell => c?.responseBytes !== undefined);
  const sizeNote =
    sized.length > 1 && new Set(sized.map((c) => c.responseBytes)).size > 1
      ? `Response sizes differ, an uncontrolled factor: ${sized.map((c) => `${formatInt(c.responseBytes!)} body bytes from ${mdCell(c.label)}`).join(", ")} (the request is byte-identical for every target). Some small part of a gap is payload size, not protocol handling.`
      : "";
  const loads = t.trials.map((x) => x.load1);
  const busyCount = t.trials.filter((x) => x.busy).length;
  const cores = t.machine?.allowedCores?.length ?? t.machine?.cores ?? 0;
  const loadRange = loads.length ? `${formatFixed(Math.min(...loads), 2)}–${formatFixed(Math.max(...loads), 2)}` : "not recorded";
  const load = busyCount
    ? {
        busy: true,
        text: `**Busy machine.** ${busyCount} of ${t.trials.length} trials started with a 1-minute load average above the ${cores} allowed cores (load ${loadRange} before the trials). Other work competed for the CPUs: latencies and throughput are worse than on an idle machine, and CPU per request is inflated by cache and frequency contention. Trials were interleaved so the contention spread over every target, which keeps ratios more trustworthy than absolute figures.`,
      }
    : { busy: false, text: `No trial started on a busy machine (1-minute load ${loadRange} before the trials, ${cores} allowed cores).` };
  const failures = t.trials.filter((x) => x.status !== "ok").map((x) => `${mdCode(x.config)} trial ${x.trial}: ${mdCell(x.error ?? x.status)}`);

  const m = t.machine;
  const environment = [
    `Machine: ${mdCell(m?.cpuModel ?? "unknown")}, ${m?.cores ?? "?"} logical CPUs (${cores} allowed), frequency governor ${mdCell(m?.governor ?? "unknown")}.`,
    `Node ${mdCell(t.node)}${t.tool ? `, ${mdCell(`${t.tool.name} ${t.tool.version}`)}` : ""}; run started ${mdCell(t.startedAt)}.`,
    t.git
      ? `wirecost commit ${mdCode(t.git.commit)}${t.git.dirty ? " (with uncommitted changes)" : ""}; matrix ${mdCode(t.matrix)}.`
      : `Matrix ${mdCode(t.matrix)}; these results predate the recording of the git commit.`,
    `Targets: ${unique(all.map((c) => c.config.target))
      .map((n) => `${mdCode(n)} = ${mdCell(t.targets[n] ?? n)}`)
      .join("; ")}.`,
  ];
  // What each target said when it started listening (e.g. the event loop and HTTP parser uvicorn selected), with its port made generic.
  const started = new Map<string, Set<string>>();
  for (const x of t.trials) {
    const c = t.configs.find((y) => y.id === x.config);
    if (!c || !x.listeningLine) continue;
    const set = started.get(c.target) ?? new Set<string>();
    set.add(x.listeningLine.replace(/127\.0\.0\.1:\d+/, "127.0.0.1:PORT"));
    started.set(c.target, set);
  }
  for (const [target, lines] of started) {
    const mine = t.trials.filter((x) => t.configs.find((y) => y.id === x.config)?.target === target);
    environment.push(
      `${mdCode(target)} said on start-up, in ${formatInt(mine.filter((x) => x.listeningLine).length)} of ${formatInt(mine.length)} trials: ${[...lines].map(mdCode).join(", ")}.`,
    );
  }
  const method = [
    `Each trial starts a fresh target process, pins it per its layout, discards ${formatInt(t.timing.warmupCalls)} warm-up calls, then times ${formatInt(t.timing.calls)} sequential calls on one warm keep-alive connection, then runs ${formatFixed(t.timing.throughputSeconds, 0)} s throughput windows at ${connections.map((n) => formatInt(n)).join(" and ")} connection(s). Trials are run in ${mdCell(t.timing.order)} order across configurations; every response is validated (a JSON-RPC error inside HTTP 200 fails the trial).`,
    `CPU: ${mdCell(t.cpuMethod)}. The quantisation error applies to the tick cross-check; the schedstat figure has nanosecond resolution.`,
    `Percentiles: ${mdCell(t.percentileMethod)}.`,
  ];
  const answerRows = [...subjects, ...(hasFloor ? [FLOOR_TARGET] : [])];
  // The headline's layout first, in the table and in the sentences.
  const answerLayouts = [headlineLayout, ...layouts.filter((l) => l !== headlineLayout)];
  const labelOf = (n: string): string => all.find((c) => c.config.target === n)?.label ?? n;
  const answer = tableView<string>(
    [
      { header: "Target", align: "left", cell: (n) => n },
      ...answerLayouts.flatMap((layout): Column<string>[] => [
        {
          header: `${mdCell(layout)}: CPU per request (µs, interval)`,
          align: "right",
          cell: (n) => {
            const c = at(n, layout);
            return c?.cpu === undefined ? "—" : `${us(c.cpu)} (${us(c.cpuMin)}–${us(c.cpuMax)})`;
          },
        },
        {
          header: `${mdCell(layout)}: × floor`,
          align: "right",
          cell: (n) => {
            const c = at(n, layout)?.cpu;
            const f = at(FLOOR_TARGET, layout)?.cpu;
            return c === undefined || f === undefined ? "—" : times(c / f);
          },
        },
      ]),
    ],
    answerRows.slice(0, 12),
  );
  const answerTargets = answerRows.map((n) => `${mdCode(n)}: ${mdCell(labelOf(n))}`);
  const answerLayoutWords = answerLayouts.map((l) => `**${mdCell(l)}**: ${t.layouts[l] === undefined ? "no CPU pinning" : mdCode(t.layouts[l])}`);
  const findings: string[] = [];
  for (const layout of answerLayouts) {
    const measured = subjects
      .map((s) => at(s, layout))
      .filter((c): c is Cell => c?.cpu !== undefined)
      .sort((a, b) => a.cpu! - b.cpu!);
    const lightest = measured[0];
    const heaviest = measured[measured.length - 1];
    const floor = at(FLOOR_TARGET, layout)?.cpu;
    if (lightest === undefined || heaviest === undefined) continue;
    const vsFloor = (c: Cell) => (floor === undefined ? "" : `, ${times(c.cpu! / floor)} the floor`);
    const name = (c: Cell) => mdCode(c.config.target);
    findings.push(
      measured.length > 1
        ? `**${mdCell(layout)}**: ${name(lightest)} costs the least server CPU per request (${us(lightest.cpu)} µs${vsFloor(lightest)}) and ${name(heaviest)} the most (${us(heaviest.cpu)} µs${vsFloor(heaviest)}, ${times(heaviest.cpu! / lightest.cpu!)} the lightest).`
        : `**${mdCell(layout)}**: ${name(lightest)} spends ${us(lightest.cpu)} µs of server CPU per request${vsFloor(lightest)}.`,
    );
  }
  // Between the two layouts: a target whose intervals overlap is not said to differ.
  const [first, second] = answerLayouts;
  if (first !== undefined && second !== undefined) {
    const overlap: string[] = [];
    const apart: string[] = [];
    for (const n of answerRows) {
      const a = at(n, first);
      const b = at(n, second);
      if (a?.cpuMin === undefined || a.cpuMax === undefined || b?.cpuMin === undefined || b.cpuMax === undefined) continue;
      if (a.cpuMin <= b.cpuMax && b.cpuMin <= a.cpuMax) overlap.push(mdCode(n));
      else apart.push(`${mdCode(n)} (${us(a.cpu)} vs ${us(b.cpu)} µs, intervals ${us(a.cpuMin)}–${us(a.cpuMax)} and ${us(b.cpuMin)}–${us(b.cpuMax)} µs)`);
    }
    if (overlap.length > 0)
      findings.push(
        `${overlap.length === answerRows.length ? "For every target" : `For ${overlap.join(", ")}`}, the intervals in the ${mdCell(first)} and ${mdCell(second)} layouts overlap: the layouts do not differ beyond the spread of the trials, so a target's figures in the two layouts are one finding, not two.`,
      );
    if (apart.length > 0) findings.push(`The ${mdCell(first)} layout differs from ${mdCell(second)} beyond the intervals for ${apart.join("; ")}.`);
  }
  const view: View = {
    title: A2A_LAYER_COST_TITLE,
    answer,
    answerTargets,
    answerLayouts: answerLayoutWords,
    findings,
    minMax: all.some((c) => c.cpuInterval === "min–max"),
    intervalWords: intervalWords(all.flatMap((c) => c.cpuInterval ?? [])),
    probes: a2aProbes(t, FLOOR_TARGET, answerLayouts),
    cpuChart: cpuChart ?? null,
    definitions: definitionItems(["floor", "trial", "percentile", "busy"]),
    trials,
    headlineLayout,
    headline,
    comparisons,
    cpuTable: tableView(cpuCols, ordered),
    layouts: layoutViews,
    floorLines,
    floorSubtracted: floorSubtracted ?? null,
    capacity: capacity ?? null,
    capacityNote,
    sizeNote,
    turnLines,
    load,
    failures,
    environment,
    builds: buildsTable(t.builds) ?? null,
    stagesSection: stagesSection ?? null,
    method,
    command: mdCode(t.command.startsWith("wirecost ") ? `npx ${t.command}` : t.command),
    reproduce: t.configs.map((c) => {
      const metric = CHECK_METRICS.find((m) => t.figure(c.id, m) !== undefined) ?? CHECK_METRICS[0];
      const f = t.figure(c.id, metric);
      return {
        config: mdCode(c.id),
        command: mdCode(reproduceCommand(c.id, t.matrix, RESULTS_FILES.timingsSummary, metric)),
        expected: f === undefined ? "no figure in these results (no ok trial)" : `median ${mdCode(String(f.median))} (${mdCode(metric)}) here`,
      };
    }),
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
