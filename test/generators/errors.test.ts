/** render() errors a user can fix: each is a UserError naming the file, line or key, and the fix. */
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { UserError } from "../../format/errors.js";
import { render } from "../../generators/render.js";
import { fixtureCopy, tempDir } from "./support.js";

/** Render and return the UserError it must throw. */
async function userError(results: string, site = tempDir("site")): Promise<UserError> {
  try {
    await render({ results, site });
  } catch (err) {
    assert.ok(err instanceof UserError, `expected a UserError, got ${String(err)}`);
    return err;
  }
  assert.fail("render did not throw");
}

describe("render errors", () => {
  it("names a missing results folder and how to produce one", async () => {
    const missing = join(tempDir("none"), "no-such-results");
    const err = await userError(missing);
    assert.equal(err.file, missing);
    assert.equal(
      err.message,
      `${missing}: results folder not found; fix: produce a results folder with \`npx wirecost run --results ${missing}\`, or pass --results pointing at an existing one`,
    );
  });

  it("names a missing results file", async () => {
    const dir = fixtureCopy();
    rmSync(join(dir, "medians.tsv"));
    const err = await userError(dir);
    assert.equal(err.file, join(dir, "medians.tsv"));
    assert.match(
      err.message,
      /medians\.tsv: file not found; fix: the results folder is incomplete; produce a results folder with `npx wirecost run --results /,
    );
  });

  it("names file:line of a row with too few fields, and leaves the site untouched", async () => {
    const dir = fixtureCopy({ "medians.tsv": (t) => t.replace(/\t(\d+)\t(\d+)\t(\d+)\n/, "\t$1\t$2\n") });
    const site = join(tempDir("site"), "site");
    const err = await userError(dir, site);
    assert.equal(err.line, 2);
    assert.equal(
      err.message,
      `${join(dir, "medians.tsv")}:2: expected 5 tab-separated fields (as in the header), found 4; fix: make the row match the header (one tab between fields, no blank lines), or regenerate the file with \`npx wirecost run\``,
    );
    assert.equal(existsSync(site), false);
  });

  it("names file:line and column of a value that is not a count", async () => {
    const dir = fixtureCopy({ "summary.tsv": (t) => t.replace("\t20\t19\t", "\t20\tnineteen\t") });
    const err = await userError(dir);
    assert.equal(err.line, 2);
    assert.equal(err.key, "repeats_ok");
    assert.match(err.message, /summary\.tsv:2 \(repeats_ok\): expected a non-negative integer, found `nineteen`; fix: /);
  });

  it("names a yes/no column holding something else", async () => {
    const dir = fixtureCopy({ "summary.tsv": (t) => t.replace("\t20\t19\tno\t", "\t20\t19\tmaybe\t") });
    const err = await userError(dir);
    assert.match(err.message, /summary\.tsv:2 \(count_identical\): expected `yes` or `no`, found `maybe`/);
  });

  it("names a missing summary column", async () => {
    const dir = fixtureCopy({ "summary.tsv": (t) => t.replace("varying_fields", "varying") });
    const err = await userError(dir);
    assert.match(err.message, /summary\.tsv:1 \(varying_fields\): missing column `varying_fields` in the header/);
  });

  it("names a provenance key of the wrong type", async () => {
    const dir = fixtureCopy({ "provenance.json": (t) => t.replace('"dirty": false', '"dirty": "no"') });
    const err = await userError(dir);
    assert.equal(err.key, "git.dirty");
    assert.match(err.message, /provenance\.json \(git\.dirty\): expected `git\.dirty` to be true or false; fix: /);
  });

  it("names an unsupported provenance schemaVersion", async () => {
    const dir = fixtureCopy({ "provenance.json": (t) => t.replace('"schemaVersion": 1', '"schemaVersion": 2') });
    const err = await userError(dir);
    assert.match(err.message, /unsupported schemaVersion 2 \(this wirecost reads 1\)/);
  });

  it("names a configuration in medians.tsv that summary.tsv lacks", async () => {
    const dir = fixtureCopy({ "medians.tsv": (t) => `${t}ghost\ttotal_bytes\t1\t1\t1\n` });
    const err = await userError(dir);
    assert.equal(err.key, "ghost");
    assert.match(err.message, /medians\.tsv \(ghost\): configuration `ghost` is not in summary\.tsv/);
  });

  it("names an axis the report needs", async () => {
    const dir = fixtureCopy({ "summary.tsv": (t) => t.replace("\tclient\t", "\tdriver\t") });
    const err = await userError(dir);
    assert.match(err.message, /summary\.tsv:1 \(client\): the mcp-on-the-wire page needs the axis column `client`; fix: declare a `client` axis/);
  });

  it("leaves a site folder's other files alone", async () => {
    const site = tempDir("site");
    writeFileSync(join(site, "keep.txt"), "mine");
    await render({ results: fixtureCopy(), site });
    const files = readdirSync(site).sort();
    assert.ok(files.includes("keep.txt") && files.includes("index.html"), "keeps keep.txt beside the site");
  });
});
