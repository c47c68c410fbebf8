/**
 * The built MCP targets of the wire matrix (matrix.yaml targets with `build:`: the Python, Go and
 * Rust servers, mark3labs/mcp-go, FastMCP and the Java SDK), through the real CLI: built from their
 * locks, every main-flow configuration (plain, input, ten; each of 2025-11-25 and 2026-07-28 the
 * target lists; stdio and HTTP; raw driver) runs 2 repeats, both ok and
 * count-identical (the second is compared with the first: a third would prove nothing more), with the JSON-RPC message counts of the TS servers (plain 4/3 under 2025-11-25
 * and 2/2 under 2026-07-28, ten 13/12 and 11/11, input 4/3 and 2/2).
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { tsv } from "../execute/helpers.js";
import { cli, root } from "../paths.js";

const matrix = loadMatrix(join(root, "matrix.yaml"));
const built = Object.values(matrix.targets).filter((t) => t.build);

/** JSON-RPC messages client→server / server→client per flow and revision era, as the TS servers send them. */
const MESSAGES: Record<string, Record<string, string>> = {
  "2025-11-25": { plain: "4/3", ten: "13/12", input: "4/3" },
  "2026-07-28": { plain: "2/2", ten: "11/11", input: "2/2" },
};

// Three targets side by side: their builds (minutes each from a cold cache) overlap instead of adding up.
describe("the built MCP targets of the wire matrix", { concurrency: 3 }, () => {
  for (const t of built) {
    const missing = missingToolchain(t, dirname(matrix.file));
    const skip = missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
    const revisions = ["2025-11-25", "2026-07-28"].filter((rev) => !t.revisions || t.revisions.includes(rev));
    it(`${t.name}: main flows on both transports and ${revisions.join(" and ")}, 2 repeats each, ok and count-identical`, {
      timeout: 900_000,
      skip,
    }, async () => {
      const out = mkdtempSync(join(tmpdir(), `wirecost-${t.name}-`));
      const only = revisions.flatMap((rev) => ["plain", "input", "ten"].flatMap((flow) => ["--only", `raw-${t.name}-*-${rev}-${flow}`]));
      const r = await execa(process.execPath, [cli, "run", "--repeats", "2", ...only, "--results", out], { cwd: root, reject: false });
      assert.equal(r.exitCode, 0, r.stderr.slice(-2000));
      const summary = tsv(join(out, "summary.tsv"));
      assert.equal(summary.length, 2 * revisions.length * 3, `2 transports × ${revisions.length} revision(s) × 3 flows`);
      const medians = tsv(join(out, "medians.tsv"));
      const med = (config: string, metric: string) => medians.find((m) => m.config === config && m.metric === metric)?.median;
      for (const s of summary) {
        assert.equal(s.repeats_ok, "2", `${s.config}: every repeat ok`);
        assert.equal(s.count_identical, "yes", `${s.config}: repeats count-identical`);
        assert.equal(`${med(s.config!, "jsonrpc_c2s")}/${med(s.config!, "jsonrpc_s2c")}`, MESSAGES[s.revision!]![s.flow!], `${s.config}: JSON-RPC messages`);
      }
    });
  }
});
