/** Results shapes beyond the basic fixture: an extra axis, another transport, a configuration with no ok repeat. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { render } from "../../generators/render.js";
import { fixtureCopy, htmlTables, tempDir } from "./support.js";

const FAILED = "raw-python-sdk-stdio-2026-07-28-plain";
const OTHER = "raw-python-sdk-http-2026-07-28-input";

describe("render with other results shapes", () => {
  it("shows an extra axis column, lists other transports, and marks missing medians", async () => {
    const results = fixtureCopy({
      // A `pinning` axis after `flow`; one configuration over `ws`; one with no ok repeat.
      "summary.tsv": (t) =>
        t
          .replace(/\n$/, "")
          .split("\n")
          .map((line, i) => {
            const f = line.split("\t");
            f.splice(6, 0, i === 0 ? "pinning" : i % 2 === 0 ? "a0-s1" : "a0-s0");
            if (f[0] === OTHER) f[3] = "ws";
            if (f[0] === FAILED) f[8] = "0";
            return f.join("\t");
          })
          .join("\n") + "\n",
      "medians.tsv": (t) =>
        t
          .split("\n")
          .filter((line) => !line.startsWith(`${FAILED}\t`))
          .join("\n"),
    });
    const site = tempDir("site");
    await render({ results, site });
    const md = readFileSync(join(site, "mcp-on-the-wire.md"), "utf8");
    const html = readFileSync(join(site, "mcp-on-the-wire.html"), "utf8");
    const tables = htmlTables(html);
    const http = tables.find((t) => t.headers.includes("Response head"));
    const stdio = tables.find((t) => t.headers.includes("Newline bytes"));
    assert.ok(http && stdio);
    assert.deepEqual(http.headers.slice(0, 8), ["#", "Flow", "Revision", "Target", "Client", "Total bytes", "_meta bytes", "JSON-RPC C→S / S→C"]);
    assert.equal(http.headers.at(-1), "pinning", "other axes come after the layers");
    assert.equal(http.rows.length, 3, "the ws configuration is not in the HTTP table");
    assert.equal(stdio.rows.length, 4);
    const failed = stdio.rows.find((r) => r.slice(1, 3).join(" ") === "plain 2026-07-28");
    assert.deepEqual(failed?.slice(5), ["—", "—", "— / —", "—", "a0-s1"]);
    assert.ok(md.includes("expect no median (no ok repeat) in the printed line"));
    assert.ok(md.includes("- repeats: 0 of 20 repeats ok;"));
    assert.ok(md.includes("## Other transports"));
    assert.ok(md.includes(`- \`${OTHER}\` (transport \`ws\`): 20 of 20 repeats ok;`));
  });
});
