/**
 * The tool catalog files `wirecost measure` adds to a bytes results folder (format/tools.ts):
 * `tools.tsv`, each tool definition of every configuration's tools/list answer with its bytes
 * and tokens (runner/count/tool-catalog.ts), and `tools-changes.tsv`, each configuration against
 * the same one at the previous revision it speaks, its byte changes and their causes
 * (runner/compare/causes.ts, through `pairChanges`), and `findings.tsv`: each tool call answered
 * `isError: true` or with a JSON-RPC error (a counted run), each configuration whose repeats
 * differ, and each configuration with no ok repeat whose catalog is read from a failed run's log
 * (whatever tools/list answer it captured; such a configuration is left out of the revision
 * comparison, whose counts would be a failed run's).
 *
 * Read from one repeat per configuration, a like one: counting is deterministic, so repeats of a
 * stateless server are alike message for message. A server that keeps state (in its process, or
 * on disk between processes) answers a repeat differently from the others; the repeats are then
 * grouped by their JSON-RPC messages (direction, kind, method, body bytes, per position), the
 * largest group (on a tie, the later one) stands for the configuration, and each other repeat is
 * named as a finding — the server's state, not the revision. When no two repeats are alike, the
 * revision comparison says it cannot compare.
 */
import type { ChangeRow } from "../../format/changes.js";
import { UserError } from "../../format/errors.js";
import { writeAtomic } from "../../format/files.js";
import { captureLogPath, messagesPath, resultsFile } from "../../format/layout.js";
import { readMessagesFile, type MessageRow } from "../../format/messages.js";
import { readMedians } from "../../format/medians.js";
import { readSummary, type ConfigSummary } from "../../format/summary.js";
import { changesTsv, FINDINGS_FILE, findingsTsv, TOOL_CHANGES_FILE, TOOLS_FILE, toolsTsv, type FindingRow, type ToolRow } from "../../format/tools.js";
import { readRunsTable } from "../../format/runs.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { toolCatalogOfRun, toolErrorsOfRun } from "../count/tool-catalog.js";
import { counted } from "../../format/plural.js";
import { pairChanges } from "./axis-changes.js";

const FIX = "run the server again with `npx wirecost measure`";

/** A message as repeats are compared: direction, kind, method and body bytes. */
const messageKey = (m: MessageRow): string => `${m.dir} ${m.kind} ${m.method} ${m.bodyBytes}`;

/** The kinds of rows that are JSON-RPC messages (format/messages.ts); the others (HTTP-only parts, a log line on stdout) are not compared. */
const JSONRPC_KINDS: readonly string[] = ["request", "notification", "result", "error"];

/**
 * A repeat's JSON-RPC messages as repeats are compared: each direction's in its own order, the
 * client's then the server's. What one side sent does not wait on the other's timing, so a log
 * line the server printed between two answers, or a notification that came before or after the
 * client's next request, is no difference between repeats; the messages and their sizes are.
 */
function comparedMessages(rows: readonly MessageRow[]): MessageRow[] {
  const messages = rows.filter((m) => JSONRPC_KINDS.includes(m.kind));
  return [...messages.filter((m) => m.dir === "c2s"), ...messages.filter((m) => m.dir !== "c2s")];
}

/** The 1-based place of `messages[at]` among the messages of its direction. */
function ordinalIn(messages: readonly MessageRow[], at: number): number {
  return messages.slice(0, at + 1).filter((m) => m.dir === messages[at]!.dir).length;
}

/** `1`, `2–5`, `1, 3`: repeat numbers (sorted) as text. */
function repeatList(repeats: readonly number[]): string {
  const consecutive = repeats.every((r, i) => i === 0 || r === repeats[i - 1]! + 1);
  return consecutive && repeats.length > 2 ? `${repeats[0]}–${repeats[repeats.length - 1]}` : repeats.join(", ");
}

/**
 * The repeat that stands for a configuration and, when its repeats differ, the findings that say
 * how (see the file's comment).
 * @param repeats the configuration's ok repeats, ascending
 * @returns the repeat (undefined when no two of several repeats are alike) and the findings
 * @throws UserError when a messages.tsv is malformed
 */
export function likeRepeat(dir: string, config: string, repeats: readonly number[]): { repeat: number | undefined; findings: FindingRow[] } {
  const tables = new Map(repeats.map((r) => [r, comparedMessages(readMessagesFile(messagesPath(dir, config, r)) ?? [])] as const));
  const groups = new Map<string, number[]>();
  for (const r of repeats) {
    const key = JSON.stringify(tables.get(r)!.map(messageKey));
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  if (groups.size <= 1) return { repeat: repeats[0], findings: [] };
  const ranked = [...groups.values()].sort((a, b) => b.length - a.length || b[0]! - a[0]!);
  const like = ranked[0]!;
  const alike = like.length > 1;
  const reference = like[0]!;
  const findings = ranked.slice(alike ? 1 : 0).flatMap((group) =>
    group
      .filter((r) => r !== reference)
      .map((r): FindingRow => {
        const mine = tables.get(r)!;
        const theirs = tables.get(reference)!;
        const at = mine.findIndex((m, i) => theirs[i] === undefined || messageKey(m) !== messageKey(theirs[i]!));
        const where =
          at < 0
            ? `in its length (${counted(mine.length, "message")}, ${counted(theirs.length, "message")} in repeat ${reference})`
            : `at the ${mine[at]!.dir === "s2c" ? "server's" : "client's"} message ${ordinalIn(mine, at)}, ${[mine[at]!.method, mine[at]!.kind].filter(Boolean).join(" ")}: ${counted(mine[at]!.bodyBytes, "body byte")}, ${theirs[at] && theirs[at]!.dir === mine[at]!.dir ? `${counted(theirs[at]!.bodyBytes, "body byte")} in repeat ${reference}` : `none in repeat ${reference}`}`;
        const others = alike ? `repeat${like.length > 1 ? "s" : ""} ${repeatList(like)}` : `repeat ${reference}`;
        const use = alike
          ? `the revision comparison uses repeat ${reference}`
          : "no two repeats are alike, so the revision comparison cannot compare like repeats";
        return {
          config,
          repeat: r,
          finding: `repeat ${r} differs from ${others} ${where} — the server's state (kept in its process or on disk between repeats), not the revision; ${use}`,
        };
      }),
  );
  return { repeat: alike ? reference : undefined, findings };
}

/**
 * The tool catalog of a configuration none of whose repeats is ok: from the first of its runs
 * (ascending repeat) whose capture log holds a tools/list answer that can be read, else the reason
 * the first run with a log gives; undefined when no run left a log (e.g. its target never started).
 * @throws CaptureLogError for a log that cannot be read
 */
function catalogOfFailedRuns(
  dir: string,
  config: string,
  runs: readonly { repeat: number; status: string; error: string }[],
  transport: "http" | "stdio",
): { run: { repeat: number; status: string; error: string }; catalog: ReturnType<typeof toolCatalogOfRun> } | undefined {
  let first: { run: { repeat: number; status: string; error: string }; catalog: ReturnType<typeof toolCatalogOfRun> } | undefined;
  for (const run of [...runs].sort((a, b) => a.repeat - b.repeat)) {
    const log = captureLogPath(dir, config, run.repeat);
    if (!existsSync(log)) continue;
    const catalog = toolCatalogOfRun(log, transport);
    if (Array.isArray(catalog)) return { run, catalog };
    first ??= { run, catalog };
  }
  return first;
}

/** A run that did not end ok: its repeat, status and error, as runs.tsv records them. */
interface OtherRun {
  repeat: number;
  status: string;
  error: string;
}

/** The repeats of each configuration by outcome: the ok ones, and the others with their status and error (runs.tsv). */
function repeatsByOutcome(dir: string): { okRepeats: Map<string, number[]>; otherRuns: Map<string, OtherRun[]> } {
  const okRepeats = new Map<string, number[]>();
  const otherRuns = new Map<string, OtherRun[]>();
  const runs = readRunsTable(dir, FIX);
  if (runs === undefined) throw new UserError({ file: resultsFile(dir, "runs"), problem: "file not found", fix: FIX });
  for (const r of runs.rows) {
    if (r.status === "ok") okRepeats.set(r.config, [...(okRepeats.get(r.config) ?? []), r.repeat]);
    else otherRuns.set(r.config, [...(otherRuns.get(r.config) ?? []), { repeat: r.repeat, status: r.status, error: r.cells.get("error") ?? "" }]);
  }
  return { okRepeats, otherRuns };
}

/** Per configuration the repeat read (a like repeat, else its first ok one), the configurations whose repeats differ, and those findings. */
function repeatsRead(dir: string, okRepeats: ReadonlyMap<string, number[]>) {
  const findings: FindingRow[] = [];
  const okRepeat = new Map<string, number>();
  const incomparable = new Set<string>();
  for (const [config, repeats] of okRepeats) {
    repeats.sort((a, b) => a - b);
    const like = likeRepeat(dir, config, repeats);
    findings.push(...like.findings);
    okRepeat.set(config, like.repeat ?? repeats[0]!);
    if (like.repeat === undefined) incomparable.add(config);
  }
  return { findings, okRepeat, incomparable };
}

const axisOf = (c: ConfigSummary, name: string): string => c.axes.get(name) ?? "";
const transportOf = (c: ConfigSummary): "http" | "stdio" => (axisOf(c, "transport") === "stdio" ? "stdio" : "http");

/** A configuration's rows of tools.tsv from a catalog, or its one row saying why there is none. */
function toolRowsOf(c: ConfigSummary, catalog: ReturnType<typeof toolCatalogOfRun>, notePrefix = ""): ToolRow[] {
  const row = { config: c.config, transport: axisOf(c, "transport"), revision: axisOf(c, "revision") };
  if (!Array.isArray(catalog)) return [{ ...row, tool: "", definitionBytes: undefined, tokens: undefined, note: `${notePrefix}${catalog.reason}` }];
  return catalog.map((t) => ({ ...row, tool: t.name, definitionBytes: t.definitionBytes, tokens: t.tokens, note: "" }));
}

/** The tool errors of a measured configuration's ok repeats: said once when every repeat got the same, else per repeat. */
function toolErrorFindings(dir: string, c: ConfigSummary, repeats: readonly number[]): FindingRow[] {
  const errors = repeats.map((repeat) => ({ repeat, said: toolErrorsOfRun(captureLogPath(dir, c.config, repeat), transportOf(c)) }));
  const everywhere = errors.length > 1 && errors.every((e) => JSON.stringify(e.said) === JSON.stringify(errors[0]!.said));
  if (everywhere) return errors[0]!.said.map((f) => ({ config: c.config, repeat: undefined, finding: `in every repeat, ${f}` }));
  return errors.flatMap((e) => e.said.map((finding) => ({ config: c.config, repeat: e.repeat, finding })));
}

/** A configuration with no ok repeat: its catalog read from a failed run's capture log, said as a finding with that run's tool errors. */
function failedRunRows(dir: string, c: ConfigSummary, others: readonly OtherRun[]): { tools: ToolRow[]; findings: FindingRow[] } {
  const got = catalogOfFailedRuns(dir, c.config, [...others], transportOf(c));
  if (got === undefined) return { tools: [], findings: [] };
  if (!Array.isArray(got.catalog)) return { tools: toolRowsOf(c, got.catalog, "no repeat ok; "), findings: [] };
  const repeat = got.run.repeat;
  return {
    tools: toolRowsOf(c, got.catalog),
    findings: [
      {
        config: c.config,
        repeat,
        finding: `no repeat ok: its tool catalog is read from this repeat's capture log (${got.run.status}: ${got.run.error || "no error recorded"})`,
      },
      ...toolErrorsOfRun(captureLogPath(dir, c.config, repeat), transportOf(c)).map((finding) => ({ config: c.config, repeat, finding })),
    ],
  };
}

/** Each measured configuration against the one with the same other axis values at the previous revision (tools-changes.tsv rows). */
function revisionChanges(dir: string, axisNames: readonly string[], measured: readonly ConfigSummary[], read: ReturnType<typeof repeatsRead>): ChangeRow[] {
  const groups = new Map<string, ConfigSummary[]>();
  for (const c of measured) {
    const key = JSON.stringify(axisNames.filter((a) => a !== "revision").map((a) => axisOf(c, a)));
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const medians = readMedians(resultsFile(dir, "medians"), FIX);
  const totalOf = (c: ConfigSummary): number => medians.get(c.config)?.get("total_bytes")?.median ?? Number.NaN;
  const changes: ChangeRow[] = [];
  for (const list of groups.values()) {
    list.sort((a, b) => (axisOf(a, "revision") < axisOf(b, "revision") ? -1 : 1));
    for (let i = 1; i < list.length; i++) {
      const [base, head] = [list[i - 1]!, list[i]!];
      const pair = { axis: "revision", from: axisOf(base, "revision"), to: axisOf(head, "revision"), baseConfig: base.config, headConfig: head.config };
      const totals = { base: totalOf(base), head: totalOf(head) };
      const unlike = [base, head].find((c) => read.incomparable.has(c.config));
      if (unlike)
        changes.push({
          ...pair,
          baseTotalBytes: totals.base,
          headTotalBytes: totals.head,
          deltaTotalBytes: totals.head - totals.base,
          ...{ kind: "error", change: "", dir: "", method: "", count: 0, bytes: 0 },
          name: `the repeats of ${unlike.config} differ from one another (the server's state): no like repeat to compare`,
        });
      else changes.push(...pairChanges(dir, pair, transportOf(head), read.okRepeat.get(base.config)!, read.okRepeat.get(head.config)!, totals));
    }
  }
  return changes;
}

/**
 * Write tools.tsv, tools-changes.tsv and findings.tsv into the results folder `dir` (atomically), from its
 * summary.tsv, runs.tsv and capture logs.
 * @returns the rows written, and the repeat read for each configuration (`repeatOf`)
 * @throws UserError when summary.tsv or runs.tsv is missing or malformed
 */
export function writeToolCatalog(dir: string): { tools: ToolRow[]; changes: ChangeRow[]; findings: FindingRow[]; repeatOf: ReadonlyMap<string, number> } {
  const summary = readSummary(resultsFile(dir, "summary"), FIX);
  const { okRepeats, otherRuns } = repeatsByOutcome(dir);
  const read = repeatsRead(dir, okRepeats);
  const findings = [...read.findings];
  const measured = summary.configs.filter((c) => read.okRepeat.has(c.config));
  const tools: ToolRow[] = [];
  for (const c of measured) {
    findings.push(...toolErrorFindings(dir, c, okRepeats.get(c.config)!));
    tools.push(...toolRowsOf(c, toolCatalogOfRun(captureLogPath(dir, c.config, read.okRepeat.get(c.config)!), transportOf(c))));
  }
  for (const c of summary.configs.filter((c) => !read.okRepeat.has(c.config))) {
    const failed = failedRunRows(dir, c, otherRuns.get(c.config) ?? []);
    tools.push(...failed.tools);
    findings.push(...failed.findings);
  }
  const changes = revisionChanges(dir, summary.axisNames, measured, read);
  writeAtomic(join(dir, TOOLS_FILE), toolsTsv(tools));
  writeAtomic(join(dir, TOOL_CHANGES_FILE), changesTsv(changes));
  writeAtomic(join(dir, FINDINGS_FILE), findingsTsv(findings));
  return { tools, changes, findings, repeatOf: read.okRepeat };
}
