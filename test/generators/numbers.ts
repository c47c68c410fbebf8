/**
 * "Every number on the report page traces to a results cell or a computation over them."
 * Helpers for that check, written independently of generators/: they read the results files
 * with plain string splitting and recompute every derived figure here. Not a test file itself.
 *
 * THE RULE. A numeric token is a run of digits (with `,` thousands groups and an optional
 * `.` fraction, and a leading `-` when it stands alone) that is not glued to a letter or `_`
 * on either side. Before tokenizing, these spans are blanked because they are identifiers or
 * inputs, not figures:
 *   1. link and image destinations `](…)` (file names);
 *   2. command lines: from `wirecost run|render|…` to the end of the code span, table cell or
 *      line (the reproduce commands and the environment's `Command` row; `--repeats 2` is an
 *      argument the reader types, not a measurement);
 *   3. configuration ids named in `summary.tsv` or `coverage.tsv` (`…-s256`, `…-v2-…`);
 *   4. dates, revisions and ISO timestamps (`2025-11-25`, `2026-09-30T05:14:00.000Z`);
 *   5. HTTP status codes right after `HTTP` or `HTTP/1.x` (wire text copied from a start line;
 *      each one is checked against the start lines in `messages.tsv` instead);
 *   6. version strings with two or more dots (`v20.20.2`, `0.1.0`, `6.8.0-fixture`) and `HTTP/1.1`;
 *   7. hex strings of 12+ characters with both a letter and a digit, and any 40- or 64-character
 *      hex string (commits, sha256, digests).
 * Tokens glued to letters (`H1`, `S4`, `v2`, `c2s`, `sha256`) are parts of names and never tokens.
 * Every remaining token must equal (after removing `,`) a figure of {@link tracedFigures}.
 */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** Rows of a TSV file as header → cell maps (no quoting: results files quote nothing we use here). */
function tsv(file: string): Array<Map<string, string>> {
  const [head = "", ...lines] = readFileSync(file, "utf8").replace(/\n$/, "").split("\n");
  const header = head.split("\t");
  return lines.map((l) => new Map(l.split("\t").map((v, i) => [header[i] ?? String(i), v] as const)));
}

/** Raw rows (arrays) of a TSV file, header included. */
function tsvArrays(file: string): string[][] {
  return readFileSync(file, "utf8")
    .replace(/\n$/, "")
    .split("\n")
    .map((l) => l.split("\t"));
}

const INT = /^-?[0-9]+$/;

/** Round half away from zero to `d` decimals, written without grouping (`2412.3`). */
export function fixed(x: number, d: number): string {
  const scale = 10 ** d;
  const r = Math.round(Math.abs(x) * scale + 1e-9) / scale;
  return `${x < 0 && r !== 0 ? "-" : ""}${r.toFixed(d)}`;
}

/** The figures a report page may print, each as a string without grouping commas. */
export interface TracedFigures {
  /** Every allowed figure (integers as `String(n)`, decimals at their printed precision). */
  all: Set<string>;
  /** HTTP status codes seen in `messages.tsv` start lines. */
  statuses: Set<string>;
  /** Configuration ids (summary and coverage), longest first. */
  configs: string[];
  /** Named derived figures, for the positional checks: `framing:<config>`, `share:<config>`, … */
  named: Map<string, string>;
}

/** Per configuration: the medians of `medians.tsv` by metric. */
export function medianCells(results: string): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>();
  for (const r of tsv(join(results, "medians.tsv"))) {
    const config = r.get("config") ?? "";
    if (!out.has(config)) out.set(config, new Map());
    out.get(config)?.set(r.get("metric") ?? "", Number(r.get("median")));
  }
  return out;
}

/** The lowest ok repeat with a messages file (runs.tsv decides ok), or the lowest one at all. */
export function tracedRepeat(results: string, config: string): number | undefined {
  const dir = join(results, "logs", config);
  if (!existsSync(dir)) return undefined;
  const logged = readdirSync(dir)
    .map((f) => /^([0-9]+)\.messages\.tsv$/.exec(f)?.[1])
    .filter((x): x is string => x !== undefined)
    .map(Number)
    .sort((a, b) => a - b);
  const runsFile = join(results, "runs.tsv");
  const ok = existsSync(runsFile)
    ? new Set(
        tsv(runsFile)
          .filter((r) => r.get("config") === config && r.get("status") === "ok")
          .map((r) => Number(r.get("repeat"))),
      )
    : new Set<number>();
  return logged.find((n) => ok.has(n)) ?? logged[0];
}

/** `messages.tsv` of a configuration's traced repeat, or undefined. */
export function messageRows(results: string, config: string): Array<Map<string, string>> | undefined {
  const repeat = tracedRepeat(results, config);
  return repeat === undefined ? undefined : tsv(join(results, "logs", config, `${repeat}.messages.tsv`));
}

/**
 * Every figure the report may print, read and recomputed from a results folder: medians.tsv
 * (min, median, max), summary.tsv and coverage.tsv numeric cells, the count of each coverage
 * state, runs.tsv repeat numbers, provenance cores, messages.tsv numeric cells with each row's
 * all-bytes sum and each column's total, and the derived figures (framing bytes and share,
 * crossover calls, fixed and marginal bytes, meeting point, ten-call difference).
 */
export function tracedFigures(results: string): TracedFigures {
  const all = new Set<string>();
  const named = new Map<string, string>();
  const statuses = new Set<string>();
  const addInt = (v: string | number | undefined): void => {
    if (v !== undefined && INT.test(String(v))) all.add(String(Number(v)));
  };
  for (const r of tsv(join(results, "medians.tsv"))) for (const k of ["min", "median", "max"]) addInt(r.get(k));
  const summary = tsvArrays(join(results, "summary.tsv"));
  const configs = new Set<string>();
  for (const row of summary.slice(1)) {
    configs.add(row[0] ?? "");
    row.forEach(addInt);
  }
  // The anomalies section: configurations with an ok repeat, those without anomalies, and each code's count.
  const okAt = summary[0]?.indexOf("repeats_ok") ?? -1;
  const anomaliesAt = summary[0]?.indexOf("anomalies") ?? -1;
  const measured = summary.slice(1).filter((r) => Number(r[okAt]) > 0);
  addInt(measured.length);
  if (anomaliesAt >= 0) {
    addInt(measured.filter((r) => (r[anomaliesAt] ?? "") === "").length);
    for (const r of measured) for (const pair of (r[anomaliesAt] ?? "").split(",").filter(Boolean)) addInt(pair.split(":")[1]);
  }
  const coverageFile = join(results, "coverage.tsv");
  if (existsSync(coverageFile)) {
    const rows = tsvArrays(coverageFile).slice(1);
    const counts = new Map<string, number>();
    for (const row of rows) {
      configs.add(row[0] ?? "");
      row.slice(0, -2).forEach(addInt);
      const state = row[row.length - 2] ?? "";
      counts.set(state, (counts.get(state) ?? 0) + 1);
    }
    for (const s of ["measured", "failed", "excluded", "not-run"]) {
      addInt(counts.get(s) ?? 0);
      named.set(`coverage:${s}`, String(counts.get(s) ?? 0));
    }
  }
  const runsFile = join(results, "runs.tsv");
  if (existsSync(runsFile)) for (const r of tsv(runsFile)) addInt(r.get("repeat"));
  const provenance = JSON.parse(readFileSync(join(results, "provenance.json"), "utf8")) as { cpu?: { cores?: number } };
  addInt(provenance.cpu?.cores);

  // Per-message breakdown: cells, per-row all-bytes, column totals; tools/call requests per config.
  const calls = new Map<string, number>();
  const byteCols = ["head_bytes", "body_bytes", "framing_bytes", "newline_bytes"];
  for (const config of configs) {
    const rows = messageRows(results, config);
    if (rows === undefined) continue;
    const totals = new Map<string, number>();
    let allBytes = 0;
    for (const r of rows) {
      for (const [k, v] of r) {
        if (k === "id" || k === "method" || k === "start_line") continue;
        addInt(v);
        if (INT.test(v)) totals.set(k, (totals.get(k) ?? 0) + Number(v));
      }
      const rowBytes = byteCols.reduce((s, k) => s + Number(r.get(k) ?? 0), 0);
      addInt(rowBytes);
      allBytes += rowBytes;
      const status = /^HTTP\/1\.[01] ([0-9]{3})/.exec(r.get("start_line") ?? "")?.[1];
      if (status !== undefined) statuses.add(status);
    }
    for (const v of totals.values()) addInt(v);
    // The trace's `_meta` total counts client → server messages only (the count's meta_bytes).
    addInt(rows.filter((r) => r.get("dir") === "c2s").reduce((s, r) => s + Number(r.get("meta_bytes") ?? 0), 0));
    addInt(allBytes);
    named.set(`trace-all:${config}`, String(allBytes));
    calls.set(config, rows.filter((r) => r.get("dir") === "c2s" && r.get("kind") === "request" && r.get("method") === "tools/call").length);
  }

  // Derived figures, recomputed from medians.tsv.
  const medians = medianCells(results);
  for (const [config, m] of medians) {
    const parts = ["request_head_bytes", "response_head_bytes", "chunk_framing_bytes"].map((k) => m.get(k));
    const total = m.get("total_bytes");
    if (parts.every((p) => p !== undefined) && total !== undefined && total > 0) {
      const framing = parts.reduce((s: number, p) => s + (p ?? 0), 0);
      addInt(framing);
      all.add(fixed((100 * framing) / total, 0));
      named.set(`framing:${config}`, String(framing));
      named.set(`share:${config}`, fixed((100 * framing) / total, 0));
    }
  }
  // Crossover: group configurations by every axis except flow and revision.
  const header = summary[0] ?? [];
  const axisEnd = header.indexOf("repeats");
  const axes = header.slice(1, axisEnd);
  const groups = new Map<string, Map<string, { one?: string; ten?: string }>>();
  for (const row of summary.slice(1)) {
    const get = (a: string): string => row[axes.indexOf(a) + 1] ?? "";
    const flow = get("flow");
    if ((flow !== "plain" && flow !== "ten") || medians.get(row[0] ?? "")?.get("total_bytes") === undefined) continue;
    const key = axes
      .filter((a) => a !== "flow" && a !== "revision")
      .map(get)
      .join("\u0000");
    const g = groups.get(key) ?? new Map<string, { one?: string; ten?: string }>();
    const pair = g.get(get("revision")) ?? {};
    if (flow === "plain") pair.one = row[0];
    else pair.ten = row[0];
    g.set(get("revision"), pair);
    groups.set(key, g);
  }
  const definedCalls: Record<string, number> = { plain: 1, ten: 10 };
  for (const g of groups.values()) {
    const lines: Array<{ rev: string; fixedBytes: number; marginal: number; ten: number }> = [];
    for (const [rev, pair] of [...g].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (pair.one === undefined || pair.ten === undefined) continue;
      const c1 = calls.get(pair.one) ?? definedCalls["plain"] ?? 1;
      const c10 = calls.get(pair.ten) ?? definedCalls["ten"] ?? 10;
      if (c1 === c10) continue;
      const t1 = medians.get(pair.one)?.get("total_bytes") ?? 0;
      const t10 = medians.get(pair.ten)?.get("total_bytes") ?? 0;
      const marginal = (t10 - t1) / (c10 - c1);
      const fixedBytes = t1 - marginal * c1;
      addInt(c1);
      addInt(c10);
      all.add(fixed(marginal, 1));
      all.add(fixed(fixedBytes, 1));
      named.set(`marginal:${pair.one}`, fixed(marginal, 1));
      named.set(`fixed:${pair.one}`, fixed(fixedBytes, 1));
      lines.push({ rev, fixedBytes, marginal, ten: t10 });
    }
    for (let i = 0; i < lines.length; i++) {
      for (let j = i + 1; j < lines.length; j++) {
        const a = lines[i];
        const b = lines[j];
        if (a === undefined || b === undefined) continue;
        if (b.marginal !== a.marginal) all.add(fixed((a.fixedBytes - b.fixedBytes) / (b.marginal - a.marginal), 2));
        addInt(b.ten - a.ten);
      }
    }
  }
  // Headline: differences between revisions of configurations that agree on every other axis.
  const byRest = new Map<string, number[]>();
  for (const row of summary.slice(1)) {
    const t = medians.get(row[0] ?? "")?.get("total_bytes");
    if (t === undefined) continue;
    const key = axes
      .filter((a) => a !== "revision")
      .map((a) => row[axes.indexOf(a) + 1] ?? "")
      .join("\u0000");
    byRest.set(key, [...(byRest.get(key) ?? []), t]);
  }
  for (const totals of byRest.values()) for (const a of totals) for (const b of totals) addInt(b - a);
  // The tool catalog (tools.tsv, tools-changes.tsv): each cell, each configuration's sums, the
  // differences between any two of a tool's (or a sum's) figures, the changes' bytes and their sums.
  const toolsFile = join(results, "tools.tsv");
  if (existsSync(toolsFile)) {
    const rows = tsv(toolsFile);
    const cols = ["definition_bytes", "tokens_o200k_base", "tokens_cl100k_base"];
    const series = new Map<string, number[]>();
    const put = (key: string, v: number): void => {
      series.set(key, [...(series.get(key) ?? []), v]);
    };
    const sums = new Map<string, number>();
    for (const r of rows) {
      if ((r.get("tool") ?? "") === "") continue;
      for (const c of cols) {
        const v = r.get(c) ?? "";
        if (!INT.test(v)) continue;
        addInt(v);
        put(`${r.get("transport")}:${r.get("tool")}:${c}`, Number(v));
        sums.set(`${r.get("transport")}:${r.get("config")}:${c}`, (sums.get(`${r.get("transport")}:${r.get("config")}:${c}`) ?? 0) + Number(v));
      }
    }
    for (const [key, v] of sums) {
      addInt(v);
      const [transport, , c] = key.split(":");
      put(`${transport}:all:${c}`, v);
    }
    addInt(new Set(rows.map((r) => `${r.get("config")}:${r.get("tool")}`)).size);
    for (const config of new Set(rows.map((r) => r.get("config")))) addInt(rows.filter((r) => r.get("config") === config).length);
    for (const vs of series.values()) for (const a of vs) for (const b of vs) addInt(b - a);
    const changesFile = join(results, "tools-changes.tsv");
    if (existsSync(changesFile)) {
      const changes = tsv(changesFile);
      for (const c of changes) for (const k of ["delta_total_bytes", "bytes", "count"]) addInt(c.get(k));
      const byPair = new Map<string, number>();
      for (const c of changes.filter((c) => c.get("method") === "tools/list" && c.get("kind") !== "" && c.get("kind") !== "unexplained"))
        byPair.set(c.get("head_config") ?? "", (byPair.get(c.get("head_config") ?? "") ?? 0) + Number(c.get("bytes") ?? 0));
      for (const v of byPair.values()) addInt(v);
    }
  }
  // Row keys link to pages; crossover calls of the flows' definitions appear in prose.
  for (const n of Object.values(definedCalls)) addInt(n);
  return { all, statuses, configs: [...configs].sort((a, b) => b.length - a.length), named };
}

/** Replace every match of `re` in `text` by spaces of the same length (keeps offsets readable). */
function blank(text: string, re: RegExp): string {
  return text.replace(re, (m) => " ".repeat(m.length));
}

/**
 * Apply the rule of this module to a page's text (markdown source, or the text of its HTML
 * body) and return every numeric token that is not a traced figure, with some context.
 * @returns `[]` when every number traces
 */
export function untracedNumbers(text: string, figures: TracedFigures): string[] {
  let t = text;
  t = t.replace(/\]\([^)]*\)/g, (m) => `]${" ".repeat(m.length - 1)}`);
  t = blank(t, /(?:npx )?wirecost (?:run|render|verify|expand|count|merge|compare)\b[^`|\n—]*/g);
  for (const id of figures.configs) if (id !== "") t = t.split(id).join(" ".repeat(id.length));
  t = blank(t, /[0-9]{4}-[0-9]{2}-[0-9]{2}(?:T[0-9]{2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]+)?Z)?/g);
  const bad: string[] = [];
  t = t.replace(/\bHTTP(?:\/1\.[01])? ([0-9]{3})\b/g, (m, status: string) => {
    if (!figures.statuses.has(status)) bad.push(`status ${status} not in any messages.tsv start line`);
    return " ".repeat(m.length);
  });
  t = blank(t, /\bv?[0-9]+(?:\.[0-9]+){2,}[\w.+-]*/g);
  t = blank(t, /\bHTTP\/[0-9]\.[0-9]\b/g);
  t = blank(t, /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{12,}\b/g);
  t = blank(t, /\b(?:[0-9a-f]{64}|[0-9a-f]{40})\b/g);
  for (const m of t.matchAll(/(?<![A-Za-z0-9_.,-])(-?)([0-9][0-9,]*(?:\.[0-9]+)?)(?![A-Za-z0-9_])/g)) {
    const raw = (m[2] ?? "").replace(/,+$/, "");
    const value = `${m[1] ?? ""}${raw.replace(/,/g, "")}`;
    if (figures.all.has(value)) continue;
    const at = m.index ?? 0;
    bad.push(`${value} in …${text.slice(Math.max(0, at - 40), at + 20).replace(/\n/g, "⏎")}…`);
  }
  return bad;
}
