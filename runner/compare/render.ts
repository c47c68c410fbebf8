/**
 * The output of `wirecost compare` (README, "What changed?"): `text` for a terminal, `md` for a
 * pull-request comment (GitHub-flavoured tables), `json` (the {@link Comparison} with the trips).
 * Every figure is from the two results folders; a timing change that is not significant is
 * printed `~`, never as a regression or an improvement.
 */
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

/** One cause as a phrase: `header \`cache-control\` added (s2c, tools/list) ×3, +39 each` (bytes per occurrence when they divide evenly). */
export function causeText(c: ByteCause, code: (s: string) => string = (s) => s): string {
  const where = [c.dir === "both" ? "" : c.dir, c.method].filter(Boolean).join(", ");
  const what = c.kind === "connections" ? `connections ${c.name}` : `${c.kind} ${code(c.name)} ${c.change}`;
  const each = c.count > 1 && c.bytes % c.count === 0 && c.bytes !== 0 ? `, ${signed(c.bytes / c.count)} each` : "";
  return `${what}${where ? ` (${where})` : ""}${c.count > 1 ? ` ×${c.count}${each}` : ""}`;
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
  return lines;
}

function tripsText(trips: readonly Trip[]): string[] {
  return trips.map((t) => `fail-on ${t.rule}: ${t.config} ${t.metric} ${t.change}`);
}

/** A short summary line of the whole comparison. */
export function summaryLine(c: Comparison): string {
  if (c.kind === "wire") {
    const total = c.bytes.filter((b) => b.changes.some((x) => x.column === "total_bytes"));
    return c.bytes.length === 0 ? "no change in any count" : `${c.bytes.length} configuration(s) changed, ${total.length} in total_bytes`;
  }
  const sig = c.metrics.filter((m) => m.significant);
  return `${c.metrics.length} metric(s) compared, ${sig.length} significant change(s) (rank test, p < 0.05), the rest ~`;
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
  return `${out.join("\n")}\n`;
}

const cell = (s: string): string => s.replace(/\|/g, "\\|").replace(/\n/g, " ");

function mdOut(c: Comparison, trips: readonly Trip[]): string {
  const out = [`### wirecost compare: ${c.kind} results`, "", `Base \`${c.base.dir}\`, head \`${c.head.dir}\`.`, ""];
  for (const n of c.notes) out.push(`> **Note:** ${cell(n)}`, "");
  out.push(`Configurations: ${c.compared.length} in both, ${c.onlyBase.length} only in base, ${c.onlyHead.length} only in head. ${summaryLine(c)}.`, "");
  if (c.onlyBase.length) out.push(`Only in base: ${c.onlyBase.map((x) => `\`${x}\``).join(", ")}`, "");
  if (c.onlyHead.length) out.push(`Only in head: ${c.onlyHead.map((x) => `\`${x}\``).join(", ")}`, "");
  if (trips.length) out.push("**Failed rules:**", "", ...trips.map((t) => `- \`${cell(t.rule)}\`: \`${t.config}\` ${t.metric} ${t.change}`), "");
  if (c.kind === "wire") {
    for (const b of c.bytes) {
      out.push(`#### \`${b.config}\``, "", "| column | base | head | change |", "| --- | ---: | ---: | ---: |");
      for (const x of b.changes) out.push(`| ${x.column} | ${fig(x.base)} | ${fig(x.head)} | ${signed(x.delta)} |`);
      out.push("");
      if (!b.causes) out.push(`Causes not found: ${cell(b.note ?? "no logs")}.`, "");
      else {
        out.push("| bytes | cause | layers |", "| ---: | --- | --- |");
        for (const x of b.causes.causes) out.push(`| ${signed(x.bytes)} | ${cell(causeText(x, (s) => `\`${s}\``))} | ${layersText(x)} |`);
        out.push(
          `| ${signed(b.causes.unexplainedBytes)} | unexplained | ${Object.entries(b.causes.unexplained)
            .map(([l, n]) => `${l} ${signed(n)}`)
            .join(", ")} |`,
          "",
        );
      }
    }
  } else {
    out.push("| config | metric | base | head | ratio | n | p | change |", "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for (const m of c.metrics)
      out.push(
        `| \`${m.config}\` | ${m.metric} | ${fig(m.medianBase)} | ${fig(m.medianHead)} | ${fig(m.ratio)} | ${m.nBase}/${m.nHead} | ${pText(m.p)} | ${changeText(m)} |`,
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
