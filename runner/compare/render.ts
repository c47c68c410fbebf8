/**
 * The output of `wirecost compare` (README, "What changed?"): `text` for a terminal, `md` for a
 * pull-request comment (GitHub-flavoured tables), `json` (the {@link Comparison} with the trips).
 * Every figure is from the two results folders; a timing change that is not significant is
 * printed `~`, never as a regression or an improvement.
 */
import { mdCell, mdCode, mdCodeCell, terminalLine } from "../../format/markdown.js";
import type { ByteCause } from "./causes.js";
import type { Comparison, ConfigBytes, MetricChange } from "./compare.js";
import type { Trip } from "./rules.js";

/** An output format of `wirecost compare`. */
export type CompareFormat = "text" | "md" | "json";

const signed = (x: number): string => (x > 0 ? `+${x}` : `${x}`);

/** A number for a table: integers as they are, else 4 significant digits. */
function fig(x: number): string {
  if (!Number.isFinite(x)) return String(x);
  return Number.isInteger(x) ? String(x) : String(Number(x.toPrecision(4)));
}

/** The p-value as printed: 3 significant digits, `<0.001` below. */
function pText(p: number): string {
  return p < 0.001 ? "<0.001" : String(Number(p.toPrecision(3)));
}

/** A timing change as printed: `+104.2%`, `-12.0%`, or `~` when not significant. */
export function changeText(m: MetricChange): string {
  if (!m.significant) return "~";
  if (!Number.isFinite(m.ratio)) return `${fig(m.medianBase)} → ${fig(m.medianHead)}`;
  const pct = (m.ratio - 1) * 100;
  return `${pct > 0 ? "+" : ""}${pct.toFixed(1)}%`;
}

/**
 * One cause as a phrase: `header \`cache-control\` added (s2c, tools/list) ×3, +39 each` (bytes
 * per occurrence when they divide evenly).
 * @param code how the cause's name (a header name, a JSON path: wire text) is written, e.g. as a code span
 * @param text how the rest of the wire text (the JSON-RPC method, the connections change) is written, e.g. escaped
 */
export function causeText(c: ByteCause, code: (s: string) => string = (s) => s, text: (s: string) => string = (s) => s): string {
  const where = [c.dir === "both" ? "" : c.dir, c.method].filter(Boolean).join(", ");
  const what = c.kind === "connections" ? `connections ${text(c.name)}` : `${c.kind} ${code(c.name)} ${c.change}`;
  const each = c.count > 1 && c.bytes % c.count === 0 && c.bytes !== 0 ? `, ${signed(c.bytes / c.count)} each` : "";
  return `${what}${where ? ` (${text(where)})` : ""}${c.count > 1 ? ` ×${c.count}${each}` : ""}`;
}

function layersText(c: ByteCause): string {
  return Object.entries(c.layers)
    .map(([l, n]) => `${l} ${signed(n)}`)
    .join(", ");
}

function header(c: Comparison): string[] {
  const lines = [
    `wirecost compare (${c.kind} results): base ${c.base.dir}, head ${c.head.dir}`,
    ...c.notes.map((n) => `note: ${n}`),
    `configurations: ${c.compared.length} in both, ${c.onlyBase.length} only in base, ${c.onlyHead.length} only in head`,
  ];
  if (c.onlyBase.length) lines.push(`only in base: ${c.onlyBase.join(", ")}`);
  if (c.onlyHead.length) lines.push(`only in head: ${c.onlyHead.join(", ")}`);
  if (c.failedBase.length) lines.push(`no ok run in base (every run failed): ${c.failedBase.join(", ")}`);
  if (c.failedHead.length) lines.push(`no ok run in head (every run failed): ${c.failedHead.join(", ")}`);
  return lines;
}

function tripsText(trips: readonly Trip[]): string[] {
  return trips.map((t) => `fail-on ${t.rule}: ${t.config} ${t.metric} ${t.change}`);
}

/** A short summary line of the whole comparison. */
export function summaryLine(c: Comparison): string {
  if (c.kind === "wire") {
    const total = c.bytes.filter((b) => b.changes.some((x) => x.column === "total_bytes"));
    const failed = new Set([...c.failedBase, ...c.failedHead]).size;
    const counts = c.bytes.length === 0 ? "no change in any count" : `${c.bytes.length} configuration(s) changed, ${total.length} in total_bytes`;
    return failed === 0 ? counts : `${counts} among those that ran ok on both sides; ${failed} with no ok run on a side`;
  }
  const sig = c.metrics.filter((m) => m.significant);
  const failed = new Set([...c.failedBase, ...c.failedHead]).size;
  return `${c.metrics.length} metric(s) compared, ${sig.length} significant change(s) (rank test, p < 0.05), the rest ~${failed ? `; ${failed} configuration(s) with no ok trial on a side` : ""}`;
}

function causesBlock(b: ConfigBytes, code: (s: string) => string): string[] {
  if (!b.causes) return [`causes: not found (${b.note ?? "no logs"})`];
  const r = b.causes;
  const lines = [`causes (first ok repeat of each; total ${signed(r.delta.total_bytes)} bytes):`];
  for (const c of r.causes) lines.push(`${signed(c.bytes).padStart(7)}  ${causeText(c, code)}  [${layersText(c)}]`);
  lines.push(
    `${signed(r.unexplainedBytes).padStart(7)}  unexplained${
      r.unexplainedBytes !== 0 || Object.keys(r.unexplained).length
        ? ` [${Object.entries(r.unexplained)
            .map(([l, n]) => `${l} ${signed(n)}`)
            .join(", ")}]`
        : ""
    }`,
  );
  return lines;
}

function textOut(c: Comparison, trips: readonly Trip[]): string {
  const out = [...header(c), summaryLine(c)];
  if (c.kind === "wire") {
    for (const b of c.bytes) {
      out.push("", b.config);
      for (const x of b.changes) out.push(`  ${x.column.padEnd(20)} ${fig(x.base)} → ${fig(x.head)}  ${signed(x.delta)}`);
      for (const l of causesBlock(b, (s) => `\`${s}\``)) out.push(`  ${l}`);
    }
  } else {
    out.push("", ["config", "metric", "base", "head", "ratio", "n", "p", "change"].join("\t"));
    for (const m of c.metrics)
      out.push([m.config, m.metric, fig(m.medianBase), fig(m.medianHead), fig(m.ratio), `${m.nBase}/${m.nHead}`, pText(m.p), changeText(m)].join("\t"));
  }
  if (trips.length) out.push("", ...tripsText(trips));
  // Text from the results folders (a JSON key, a header name, provenance.json's matrix file)
  // holding U+202E would reorder the terminal line around it; an ESC would drive the terminal.
  return `${out.map(terminalLine).join("\n")}\n`;
}

const capitalised = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** Configuration ids as code spans, comma-separated (markdown, one line). */
const codeList = (ids: readonly string[]): string => ids.map(mdCode).join(", ");

/**
 * The comparison as GitHub-flavoured markdown (the pull-request comment). Everything that came
 * from the results folders or the wire (folder names, notes, ids, column and metric names, cause
 * names, rules) goes through format/markdown.ts, one line each, so a JSON key or header holding a
 * backtick, a pipe, brackets or HTML stays literal text in its span or cell.
 */
function mdOut(c: Comparison, trips: readonly Trip[]): string {
  const out = [`### wirecost compare: ${c.kind} results`, "", `Base ${mdCode(c.base.dir)}, head ${mdCode(c.head.dir)}.`, ""];
  for (const n of c.notes) out.push(`> **Note:** ${mdCell(n)}`, "");
  out.push(
    `Configurations: ${c.compared.length} in both, ${c.onlyBase.length} only in base, ${c.onlyHead.length} only in head. ${mdCell(capitalised(summaryLine(c)))}.`,
    "",
  );
  if (c.onlyBase.length) out.push(`Only in base: ${codeList(c.onlyBase)}`, "");
  if (c.onlyHead.length) out.push(`Only in head: ${codeList(c.onlyHead)}`, "");
  if (c.failedBase.length) out.push(`No ok run in base (every run failed): ${codeList(c.failedBase)}`, "");
  if (c.failedHead.length) out.push(`No ok run in head (every run failed): ${codeList(c.failedHead)}`, "");
  if (trips.length)
    out.push("**Failed rules:**", "", ...trips.map((t) => `- ${mdCode(t.rule)}: ${mdCode(t.config)} ${mdCell(t.metric)} ${mdCell(t.change)}`), "");
  if (c.kind === "wire") {
    for (const b of c.bytes) {
      out.push(`#### ${mdCode(b.config)}`, "", "| column | base | head | change |", "| --- | ---: | ---: | ---: |");
      for (const x of b.changes) out.push(`| ${mdCell(x.column)} | ${fig(x.base)} | ${fig(x.head)} | ${signed(x.delta)} |`);
      out.push("");
      if (!b.causes) out.push(`Causes not found: ${mdCell(b.note ?? "no logs")}.`, "");
      else {
        out.push("| bytes | cause | layers |", "| ---: | --- | --- |");
        for (const x of b.causes.causes) out.push(`| ${signed(x.bytes)} | ${causeText(x, mdCodeCell, mdCell)} | ${mdCell(layersText(x))} |`);
        out.push(
          `| ${signed(b.causes.unexplainedBytes)} | unexplained | ${mdCell(
            Object.entries(b.causes.unexplained)
              .map(([l, n]) => `${l} ${signed(n)}`)
              .join(", "),
          )} |`,
          "",
        );
      }
    }
  } else {
    out.push("| config | metric | base | head | ratio | n | p | change |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const m of c.metrics)
      out.push(
        `| ${mdCodeCell(m.config)} | ${mdCell(m.metric)} | ${fig(m.medianBase)} | ${fig(m.medianHead)} | ${fig(m.ratio)} | ${m.nBase}/${m.nHead} | ${pText(m.p)} | ${mdCell(changeText(m))} |`,
      );
    out.push("");
  }
  return `${out.join("\n")}\n`;
}

/** The comparison in `format`, with the rules that tripped. */
export function renderComparison(c: Comparison, trips: readonly Trip[], format: CompareFormat): string {
  if (format === "json") return `${JSON.stringify({ ...c, trips }, null, 2)}\n`;
  return format === "md" ? mdOut(c, trips) : textOut(c, trips);
}
