/** `wirecost expand`: print configurations (tsv or json), optionally the excluded cells. */
import { expand } from "../../runner/matrix/expand.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { toTsv } from "../../runner/results/files.js";
import { UserError } from "../../runner/errors.js";

/** Print the expansion of `file` to stdout and the run count to stderr. */
export function expandCommand(file: string, o: { format: string; all?: boolean }): void {
  if (o.format !== "tsv" && o.format !== "json") throw new UserError(`--format ${o.format}: unknown format — use tsv or json`);
  const m = loadMatrix(file);
  const { configurations, excluded } = expand(m);
  const runs = configurations.reduce((s, c) => s + c.repeats, 0);
  if (o.format === "json") {
    process.stdout.write(JSON.stringify({ configurations, ...(o.all ? { excluded } : {}), runs }, null, 2) + "\n");
  } else {
    const axes = m.axes.map((a) => a.name);
    const rows = configurations.map((c) => [c.id, c.repeats, ...axes.map((a) => c.values[a]!), ...(o.all ? ["included", ""] : [])]);
    if (o.all) rows.push(...excluded.map((c) => [c.id, 0, ...axes.map((a) => c.values[a]!), "excluded", c.reason]));
    process.stdout.write(toTsv(["id", "repeats", ...axes, ...(o.all ? ["status", "reason"] : [])], rows));
  }
  process.stderr.write(`${configurations.length} configurations, ${runs} runs${excluded.length ? `, ${excluded.length} cells excluded` : ""}\n`);
}
