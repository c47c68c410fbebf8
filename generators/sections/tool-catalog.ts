/**
 * "What this server's catalog costs a model's context": the tool catalog section of a page whose
 * results folder holds `tools.tsv` (written by `wirecost measure`, format/tools.ts). Per transport,
 * one row per tool: its definition's bytes and tokens under each tokenizer (named with its package
 * version from provenance.json) in every revision measured, with the difference to the revision
 * before it; then what each revision adds to the tools/list answer: the tools added or removed,
 * by name, or else the causes `wirecost compare`'s cause finder named (`tools-changes.tsv`). Tool names and causes come from the wire:
 * every one is escaped (table cells by `tableView`, sentences by `mdCell`/`mdCode`).
 */
import { mdCell, mdCode } from "../../format/markdown.js";
import type { ChangeRow } from "../../format/changes.js";
import { ENCODINGS } from "../../format/tokens.js";
import { readFindings, readToolCatalog, type ToolRow } from "../../format/tools.js";
import { compareTuples } from "../../format/order.js";
import { formatInt, transportName } from "../format.js";
import type { Results } from "../results/load.js";
import { tableView, type TableView } from "../table.js";

/** The section's view, per transport. */
export interface ToolCatalogView {
  /** The tokenizers, as provenance.json names them (markdown). */
  tokenizers: string;
  transports: Array<{
    transport: string;
    /** One row per tool, and a last row summing every definition. */
    table: TableView;
    /** What each revision adds, one markdown sentence per revision pair. */
    adds: string[];
  }>;
  /** Configurations without a catalog and why (markdown). */
  notes: string[];
  /** What the run found beside the counts (`findings.tsv`: tool errors, repeats that differ), one markdown sentence each. */
  findings: string[];
  /** The revisions measured over the transport that has most (1: nothing to compare a revision with). */
  revisionCount: number;
}

const signed = (d: number): string => (d > 0 ? `+${formatInt(d)}` : formatInt(d));
const byText = (a: string, b: string): number => compareTuples([a], [b]);

/** `2,270 (+12)`: a figure and its difference to the previous revision's (absent: none). */
function withDelta(now: number | undefined, before: number | undefined, hasBefore: boolean): string {
  if (now === undefined) return "—";
  return hasBefore && before !== undefined ? `${formatInt(now)} (${signed(now - before)})` : formatInt(now);
}

/** Tokens per encoding as `550 / 534`, each with its difference when there is a revision before. */
function tokensCell(now: ToolRow | undefined, before: ToolRow | undefined, hasBefore: boolean): string {
  if (now === undefined) return "—";
  if (now.tokens === undefined) return "not counted";
  return ENCODINGS.map((e) => withDelta(now.tokens?.[e], before?.tokens?.[e], hasBefore && before?.tokens !== undefined)).join(" / ");
}

/** `+1,204 bytes, +310 tokens`: a definition's size, or a difference of two, in bytes and in the first tokenizer's tokens. */
function sizeText(bytes: number, tokens: number | undefined, sign: boolean): string {
  const n = (d: number) => (sign ? signed(d) : formatInt(d));
  return `${n(bytes)} bytes${tokens === undefined ? "" : `, ${n(tokens)} ${ENCODINGS[0]} tokens`}`;
}

/**
 * The tools one revision lists and the one before it does not, and back, by name (never by
 * position in the list), and the definitions of one name that changed: markdown, or undefined
 * when the two revisions list the same tools (the cause finder then names what changed).
 */
function toolsByName(before: readonly ToolRow[], after: readonly ToolRow[]): string | undefined {
  const named = (rows: readonly ToolRow[]) => new Map(rows.map((t) => [t.tool, t]));
  const [was, now] = [named(before), named(after)];
  const added = [...now.values()].filter((t) => !was.has(t.tool));
  const removed = [...was.values()].filter((t) => !now.has(t.tool));
  if (added.length === 0 && removed.length === 0) return undefined;
  const tokens = (t: ToolRow | undefined) => t?.tokens?.[ENCODINGS[0]!];
  const one = (t: ToolRow) => `${mdCode(t.tool)} (${sizeText(t.definitionBytes ?? 0, tokens(t), false)})`;
  const changed = [...now.values()].flatMap((t) => {
    const old = was.get(t.tool);
    if (old === undefined || old.definitionBytes === t.definitionBytes) return [];
    const dt = tokens(t) !== undefined && tokens(old) !== undefined ? tokens(t)! - tokens(old)! : undefined;
    return [`${mdCode(t.tool)} (${sizeText((t.definitionBytes ?? 0) - (old.definitionBytes ?? 0), dt, true)})`];
  });
  return [
    added.length ? `tools added: ${added.map(one).join(", ")}` : "",
    removed.length ? `tools removed: ${removed.map(one).join(", ")}` : "",
    changed.length ? `definitions changed: ${changed.join(", ")}` : "",
  ]
    .filter((x) => x !== "")
    .join("; ");
}

/**
 * What one revision pair's changes say about the tools/list answer, in one sentence: the tools
 * added or removed by name when the two revisions list different tools, else the causes the
 * cause finder named.
 * @param tools the tool definitions the revision before (`before`) and this one (`after`) listed
 */
function addsSentence(rows: readonly ChangeRow[], transport: string, tools: { before: readonly ToolRow[]; after: readonly ToolRow[] }): string | undefined {
  const first = rows[0];
  if (first === undefined) return undefined;
  const error = rows.find((r) => r.kind === "error");
  const head = `${first.from} → ${first.to} over ${transportName(transport)}`;
  if (error) return `${head}: not compared (${mdCell(error.name)}).`;
  const list = rows.filter((r) => r.method === "tools/list" && r.kind !== "" && r.kind !== "unexplained");
  const listBytes = list.reduce((s, r) => s + r.bytes, 0);
  const session = `the session ${signed(first.deltaTotalBytes)} bytes in all`;
  if (list.length === 0) return `${head}: the tools/list exchange unchanged; ${session}.`;
  const byName = toolsByName(tools.before, tools.after);
  if (byName !== undefined) return `${head}: the tools/list exchange ${signed(listBytes)} bytes — ${byName}; ${session}.`;
  const causes = list
    .sort((a, b) => Math.abs(b.bytes) - Math.abs(a.bytes))
    .map((r) => `${r.kind} ${mdCode(r.name)} ${r.change}${r.count > 1 ? ` ×${formatInt(r.count)}` : ""} (${signed(r.bytes)})`);
  return `${head}: the tools/list exchange ${signed(listBytes)} bytes — ${causes.join("; ")}; ${session}.`;
}

/**
 * The catalog section of a results folder, or undefined when it has no `tools.tsv`.
 * @throws UserError when tools.tsv or tools-changes.tsv is malformed (format/tools.ts)
 */
export function toolCatalogView(results: Results): ToolCatalogView | undefined {
  const catalog = readToolCatalog(results.dir);
  if (catalog === undefined) return undefined;
  const tokenizers = results.provenance.tokenizers.length
    ? results.provenance.tokenizers.map((t) => mdCell(t)).join(", ")
    : `${ENCODINGS.join(", ")} (tokenizer versions not recorded in these results)`;
  const notes = catalog.tools.filter((t) => t.tool === "").map((t) => `${mdCode(t.config)}: ${mdCell(t.note)}`);
  const findings = readFindings(results.dir).map((f) => `${mdCode(f.config)}${f.repeat === undefined ? "" : `, repeat ${f.repeat}`}: ${mdCell(f.finding)}`);
  const tools = catalog.tools.filter((t) => t.tool !== "");
  const transports = [...new Set(tools.map((t) => t.transport))].sort(byText);
  const revisionCount = Math.max(0, ...transports.map((tr) => new Set(tools.filter((t) => t.transport === tr).map((t) => t.revision)).size));
  return {
    tokenizers,
    notes,
    findings,
    revisionCount,
    transports: transports.map((transport) => {
      const here = tools.filter((t) => t.transport === transport);
      // One configuration per revision (the first by id, when several flows listed the tools).
      const configOf = new Map<string, string>();
      for (const t of [...here].sort((a, b) => byText(a.config, b.config))) if (!configOf.has(t.revision)) configOf.set(t.revision, t.config);
      const revisions = [...configOf.keys()].sort(byText);
      const rowsOf = (rev: string) => here.filter((t) => t.config === configOf.get(rev));
      const names = [...new Set(revisions.flatMap((rev) => rowsOf(rev).map((t) => t.tool)))];
      const at = (rev: string | undefined, name: string) => (rev === undefined ? undefined : rowsOf(rev).find((t) => t.tool === name));
      const sumOf = (rev: string | undefined): ToolRow | undefined => {
        if (rev === undefined) return undefined;
        const list = rowsOf(rev);
        const counted = list.every((t) => t.tokens !== undefined);
        return {
          ...list[0]!,
          tool: list.length === 1 ? "its 1 definition" : `all ${formatInt(list.length)} definitions`,
          definitionBytes: list.reduce((s, t) => s + (t.definitionBytes ?? 0), 0),
          tokens: counted
            ? (Object.fromEntries(ENCODINGS.map((e) => [e, list.reduce((s, t) => s + (t.tokens?.[e] ?? 0), 0)])) as ToolRow["tokens"])
            : undefined,
        };
      };
      type Line = { name: string; get: (rev: string | undefined) => ToolRow | undefined };
      const lines: Line[] = [...names.map((name): Line => ({ name, get: (rev) => at(rev, name) })), { name: "all", get: sumOf }];
      const table = tableView<Line>(
        [
          { header: "Tool", align: "left", cell: (l) => l.get(revisions.find((r) => l.get(r) !== undefined))?.tool ?? l.name },
          ...revisions.flatMap((rev, i) => [
            {
              header: `${rev} bytes`,
              align: "right" as const,
              cell: (l: Line) => withDelta(l.get(rev)?.definitionBytes, l.get(revisions[i - 1])?.definitionBytes, i > 0),
            },
            {
              header: `${rev} tokens (${ENCODINGS.join(" / ")})`,
              align: "right" as const,
              cell: (l: Line) => tokensCell(l.get(rev), l.get(revisions[i - 1]), i > 0),
            },
          ]),
        ],
        lines,
      );
      const pairs = new Map<string, ChangeRow[]>();
      for (const c of catalog.changes) {
        if (![...configOf.values()].includes(c.headConfig)) continue;
        pairs.set(c.headConfig, [...(pairs.get(c.headConfig) ?? []), c]);
      }
      const adds = revisions.flatMap((rev, i) => {
        const tools = { before: i > 0 ? rowsOf(revisions[i - 1]!) : [], after: rowsOf(rev) };
        const s = addsSentence(pairs.get(configOf.get(rev)!) ?? [], transport, tools);
        return s === undefined ? [] : [s];
      });
      return { transport: transportName(transport), table, adds };
    }),
  };
}
