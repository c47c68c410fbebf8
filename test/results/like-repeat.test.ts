/**
 * Repeats compared as the tool catalog compares them (runner/results/tool-catalog.ts likeRepeat):
 * a committed run's per-message table (results/logs/…/1.messages.tsv) as repeat 1; repeat 2 the
 * same messages with a log line the server printed (an `unattributed` row) landing elsewhere, and
 * the server's answer ordered after the client's next request: alike, no finding. Repeat 3 with
 * one answer a byte longer: a finding naming the server's message by its place among the server's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { messagesPath } from "../../format/layout.js";
import { likeRepeat } from "../../runner/results/tool-catalog.js";
import { root } from "../paths.js";

const CONFIG = "py-sdk-mcp-py-stdio-2025-11-25-plain";

test("a log line's place and the interleaving of the two directions are no difference between repeats; a message's size is", () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-like-"));
  const [head, ...rows] = readFileSync(join(root, "results/logs", CONFIG, "1.messages.tsv"), "utf8")
    .replace(/\n$/, "")
    .split("\n");
  const cols = head!.split("\t");
  const col = (name: string) => cols.indexOf(name);
  const logLine = (seq: number) =>
    cols
      .map(
        (c) =>
          ({ seq: String(seq), conn: "0", dir: "s2c", kind: "unattributed", unattributed_bytes: "23" })[c] ??
          (/_bytes$/.test(c) ? "0" : c === "sse" || c === "incomplete" ? "no" : ""),
      )
      .join("\t");
  const write = (repeat: number, lines: string[]) => {
    const file = messagesPath(dir, CONFIG, repeat);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, [head, ...lines, ""].join("\n"));
  };
  write(1, [rows[0]!, logLine(0), ...rows.slice(1)]);
  // Repeat 2: the log line after the last message, and the initialize result after the initialized notification.
  write(2, [rows[0]!, rows[2]!, rows[1]!, ...rows.slice(3), logLine(0)]);
  assert.deepEqual(likeRepeat(dir, CONFIG, [1, 2]).findings, []);
  // Repeat 3: the tools/list answer a byte longer.
  const longer = rows.map((r) => {
    const c = r.split("\t");
    if (c[col("dir")] === "s2c" && c[col("method")] === "tools/list") c[col("body_bytes")] = String(Number(c[col("body_bytes")]) + 1);
    return c.join("\t");
  });
  write(3, longer);
  const { repeat, findings } = likeRepeat(dir, CONFIG, [1, 2, 3]);
  assert.equal(repeat, 1);
  assert.equal(findings.length, 1);
  assert.match(
    findings[0]!.finding,
    /^repeat 3 differs from repeats 1, 2 at the server's message 2, tools\/list result: \d+ body bytes, \d+ body bytes in repeat 1 — /,
  );
});
