/**
 * `wirecost render` removes the pages it no longer writes, and nothing else, through the real CLI:
 * a configuration gone from the results loses its pages on the next render; a page render wrote
 * and the user changed since is kept with a note; a file render never wrote stays; a manifest
 * naming a path outside the site is refused in one line and nothing is written or removed; a
 * render never replaces or removes a page another results folder's render wrote (refused in one
 * line; measure's test covers the index kept with a note); a manifest of
 * schema 1 (written before pages recorded their results folder) is read as this folder's.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { cli, root } from "../paths.js";
import { fixtureCopy, tempDir } from "./support.js";
import { UserError } from "../../format/errors.js";
import { readSiteManifest } from "../../generators/site-manifest.js";

const MANIFEST = ".wirecost-site.json";
/** Configurations of the fixture dropped from the results between the two renders. */
const GONE = "raw-python-sdk-stdio-2026-07-28-input";
const EDITED = "raw-python-sdk-stdio-2025-11-25-input";

function render(results: string, site: string) {
  return spawnSync(process.execPath, [cli, "render", "--results", results, "--site", site], { cwd: root, encoding: "utf8" });
}

/** Drop the rows of `configs` from the TSV files of the results folder `dir`, in place (the same folder rendered again). */
function dropRows(dir: string, configs: string[]): string {
  for (const f of ["summary.tsv", "medians.tsv"]) {
    const text = readFileSync(join(dir, f), "utf8");
    writeFileSync(
      join(dir, f),
      text
        .split("\n")
        .filter((l) => !configs.some((c) => l.startsWith(`${c}\t`)))
        .join("\n"),
    );
  }
  return dir;
}

/** The results fixture without the rows of `configs` in its TSV files. */
function without(configs: string[]): string {
  const drop = (text: string) =>
    text
      .split("\n")
      .filter((l) => !configs.some((c) => l.startsWith(`${c}\t`)))
      .join("\n");
  return fixtureCopy({ "summary.tsv": drop, "medians.tsv": drop });
}

test("a configuration gone from the results loses its pages; a page changed since, and other files, stay", () => {
  const site = tempDir("site-manifest");
  writeFileSync(join(site, "keep.txt"), "mine");
  const results = fixtureCopy();
  const first = render(results, site);
  assert.equal(first.status, 0, first.stderr);
  const manifest = JSON.parse(readFileSync(join(site, MANIFEST), "utf8")) as { schemaVersion: number; files: Record<string, { results: string }> };
  assert.equal(manifest.schemaVersion, 2);
  const written = readdirSync(site).filter((f) => f !== MANIFEST && f !== "keep.txt");
  assert.deepEqual(Object.keys(manifest.files).sort(), written.sort(), "the manifest names every page written, not keep.txt");
  for (const c of [GONE, EDITED]) assert.ok(existsSync(join(site, `config-${c}.md`)) && existsSync(join(site, `config-${c}.html`)));

  writeFileSync(join(site, `config-${EDITED}.md`), "my notes\n");
  const second = render(dropRows(results, [GONE, EDITED]), site);
  assert.equal(second.status, 0, second.stderr);
  assert.match(second.stderr, /^wrote \d+ files to .*; removed 3 files an earlier render wrote and this one does not\n/);
  assert.match(second.stderr, new RegExp(`\\nnote: kept .*/config-${EDITED}\\.md: an earlier render wrote it and this one does not, but it changed since`));
  assert.ok(!existsSync(join(site, `config-${GONE}.md`)) && !existsSync(join(site, `config-${GONE}.html`)), "the gone configuration's pages are removed");
  assert.ok(!existsSync(join(site, `config-${EDITED}.html`)), "its unchanged page is removed");
  assert.equal(readFileSync(join(site, `config-${EDITED}.md`), "utf8"), "my notes\n", "the page changed since is kept as it is");
  assert.equal(readFileSync(join(site, "keep.txt"), "utf8"), "mine", "a file render never wrote stays");
  const after = JSON.parse(readFileSync(join(site, MANIFEST), "utf8")) as { files: Record<string, string> };
  assert.ok(!Object.keys(after.files).some((f) => f.includes(GONE) || f.includes(EDITED)), "the manifest names only what this render wrote");
  for (const f of Object.keys(after.files)) assert.ok(existsSync(join(site, f)), `${f} is there`);

  const third = render(results, site);
  assert.equal(third.status, 0, third.stderr);
  assert.match(third.stderr, /^wrote \d+ files to [^\n;]*\n$/, "nothing more to remove, and the kept page is no longer named");
});

test("a manifest naming a path outside the site folder is refused in one line; nothing is written or removed", () => {
  const parent = tempDir("site-manifest-bad");
  const site = join(parent, "site");
  assert.equal(render(fixtureCopy(), site).status, 0);
  writeFileSync(join(parent, "outside.txt"), "not the site's");
  const file = join(site, MANIFEST);
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, { sha256: string; results: string }> };
  manifest.files["../outside.txt"] = { sha256: "0".repeat(64), results: "../results" };
  writeFileSync(file, JSON.stringify(manifest));
  const before = readdirSync(site).sort();
  const r = render(fixtureCopy(), site);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stderr,
    `wirecost: ${file} (files): "../outside.txt" is not the name of a file in the site folder; fix: delete ${file}: the next render removes nothing, writes the manifest anew, and replaces no page that differs from what it writes\n`,
  );
  assert.equal(readFileSync(join(parent, "outside.txt"), "utf8"), "not the site's");
  assert.deepEqual(readdirSync(site).sort(), before);
});

test("a second results folder whose pages have the names of the first's: refused in one line, nothing written or removed", () => {
  const site = tempDir("site-manifest-two");
  const a = fixtureCopy();
  assert.equal(render(a, site).status, 0);
  const manifestBefore = readFileSync(join(site, MANIFEST), "utf8");
  const pagesBefore = readdirSync(site).map((f) => [f, readFileSync(join(site, f), "utf8")]);
  const b = without([GONE]);
  const second = render(b, site);
  assert.equal(second.status, 1, second.stderr);
  assert.match(
    second.stderr,
    new RegExp(
      `^wirecost: ${site}: \\S+ \\(and \\d+ more\\) was rendered from the results folder ${relative(site, a)}, which a render of ${b} would replace; fix: give --site a folder of its own for these results\\n$`,
    ),
  );
  assert.deepEqual(
    readdirSync(site).map((f) => [f, readFileSync(join(site, f), "utf8")]),
    pagesBefore,
  );
  assert.equal(readFileSync(join(site, MANIFEST), "utf8"), manifestBefore);
  // The first folder rendered again without that configuration: its pages go (it wrote them).
  const third = render(dropRows(a, [GONE]), site);
  assert.equal(third.status, 0, third.stderr);
  assert.match(third.stderr, /removed 2 files an earlier render wrote and this one does not/);
  assert.ok(!existsSync(join(site, `config-${GONE}.md`)));
});

test("a schema 1 manifest (a digest per page) is read as the results folder rendered now: its stale pages are removed", () => {
  const site = tempDir("site-manifest-v1");
  assert.equal(render(fixtureCopy(), site).status, 0);
  const file = join(site, MANIFEST);
  const v2 = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, { sha256: string }> };
  const v1 = { schemaVersion: 1, files: Object.fromEntries(Object.entries(v2.files).map(([name, page]) => [name, page.sha256])) };
  writeFileSync(file, JSON.stringify(v1));
  const r = render(without([GONE]), site);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stderr, /removed 2 files an earlier render wrote and this one does not/);
  assert.ok(!existsSync(join(site, `config-${GONE}.md`)));
});

test("a file no render wrote, of a page's name, is not replaced: refused in one line, nothing written; one holding the page's bytes is taken as the page", () => {
  const site = tempDir("site-manifest-hand");
  const results = fixtureCopy();
  assert.equal(render(results, site).status, 0);
  const page = "mcp-on-the-wire.md";
  const written = readFileSync(join(site, page), "utf8");
  // The manifest loses the page (as after an older wirecost, or the manifest deleted): the same bytes are still the page.
  const file = join(site, MANIFEST);
  const manifest = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, unknown> };
  delete manifest.files[page];
  writeFileSync(file, JSON.stringify(manifest));
  assert.equal(render(results, site).status, 0);
  // Now a hand-written file of that name, unrecorded again.
  const again = JSON.parse(readFileSync(file, "utf8")) as { files: Record<string, unknown> };
  delete again.files[page];
  writeFileSync(file, JSON.stringify(again));
  writeFileSync(join(site, page), "my own notes\n");
  const before = readdirSync(site).map((n) => [n, readFileSync(join(site, n), "utf8")]);
  const r = render(results, site);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(
    r.stderr,
    `wirecost: ${join(site, page)}: this render would replace it, and no render wrote it (it is not in ${MANIFEST}); fix: move it out of the site folder, or give --site a folder of its own\n`,
  );
  assert.deepEqual(
    readdirSync(site).map((n) => [n, readFileSync(join(site, n), "utf8")]),
    before,
    "nothing written",
  );
  assert.notEqual(written, "my own notes\n");
});

test("a page changed since render wrote it, a link and a folder of a page's name are not replaced: one line each, nothing written", () => {
  const site = tempDir("site-manifest-theirs");
  const results = fixtureCopy();
  assert.equal(render(results, site).status, 0);
  const page = "mcp-on-the-wire.md";
  const listing = () => readdirSync(site).map((n) => [n, lstatSync(join(site, n)).isFile() ? readFileSync(join(site, n), "utf8") : "(not a file)"]);
  const cases: [string, () => void, RegExp][] = [
    ["edited", () => writeFileSync(join(site, page), `${readFileSync(join(site, page), "utf8")}my note\n`), /it changed since a render wrote it/],
    [
      "link",
      () => {
        rmSync(join(site, page));
        symlinkSync(join(site, "index.md"), join(site, page));
      },
      /it is a symbolic link, which no render writes/,
    ],
    [
      "folder",
      () => {
        rmSync(join(site, page));
        mkdirSync(join(site, page));
      },
      /it is a folder, which no render writes/,
    ],
  ];
  for (const [name, make, why] of cases) {
    make();
    const before = listing();
    const r = render(results, site);
    assert.equal(r.status, 1, `${name}: ${r.stderr}`);
    assert.equal(r.stderr.split("\n").filter(Boolean).length, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`${join(site, page)}: this render would replace it, and ${why.source}; fix: move it out of the site folder`));
    assert.deepEqual(listing(), before, `${name}: nothing written`);
  }
});

test("the same results folder named through a symbolic link renders into the site its real path rendered", () => {
  const parent = tempDir("site-manifest-link");
  const results = fixtureCopy();
  const link = join(parent, "results-link");
  symlinkSync(results, link);
  const site = join(parent, "site");
  assert.equal(render(results, site).status, 0);
  const r = render(link, site);
  assert.equal(r.status, 0, r.stderr);
  const manifest = JSON.parse(readFileSync(join(site, MANIFEST), "utf8")) as { files: Record<string, { results: string }> };
  assert.deepEqual([...new Set(Object.values(manifest.files).map((f) => f.results))], [relative(realpathSync(site), realpathSync(results))]);
});

test("a manifest that cannot be read is refused in one line that says so, not that it is not JSON", () => {
  const site = tempDir("site-manifest-unreadable");
  mkdirSync(join(site, MANIFEST));
  assert.throws(
    () => readSiteManifest(site),
    (e: unknown) =>
      e instanceof UserError &&
      e.message ===
        `${join(site, MANIFEST)}: cannot be read (EISDIR); fix: delete ${join(site, MANIFEST)}: the next render removes nothing, writes the manifest anew, and replaces no page that differs from what it writes`,
  );
});
