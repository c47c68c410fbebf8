/**
 * The house rules, read off the source's own import statements (ARCHITECTURE.md, "Rooms and
 * walls"): `format/` imports only itself and packages; `generators/` imports only itself,
 * `format/` and packages (pages are rendered from results files alone); `runner/` imports itself,
 * `format/` and `targets/` (the per-call direct path calls a workload in process), nothing
 * of `generators/`; `runner/attribution/` imports only itself, `format/` and three named helpers;
 * and no import cycle runs through runner/, generators/, format/ or bin/.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { root } from "../paths.js";

const ROOMS = ["format", "runner", "generators", "bin"];

/** Every .ts file under `dir` (repo-relative). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** The repo-relative .ts files a source imports (static `import … from`, `export … from` and `import("…")` of relative paths). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specs = [...text.matchAll(/(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/g), ...text.matchAll(/import\(\s*"(\.[^"]+)"\s*\)/g)].map(
    (m) => m[1]!,
  );
  return specs.map((s) => relative(root, resolve(root, dirname(file), s)).replace(/\.js$/, ".ts"));
}

const graph = new Map(ROOMS.flatMap(sources).map((f) => [f, importsOf(f)] as const));
const roomOf = (file: string): string => file.split("/")[0]!;

test("format/ imports only itself; generators/ only itself and format/; runner/ itself, format/ and targets/", () => {
  const allowed: Record<string, readonly string[]> = { format: ["format"], generators: ["generators", "format"], runner: ["runner", "format", "targets"] };
  const breaches: string[] = [];
  for (const [file, deps] of graph) {
    const ok = allowed[roomOf(file)];
    if (ok === undefined) continue;
    for (const dep of deps) if (!ok.includes(roomOf(dep))) breaches.push(`${file} imports ${dep}`);
  }
  assert.deepEqual(breaches, [], "move what both sides need into format/, or have the runner write it into a results file");
});

test("runner/attribution/ imports only itself, format/, the YAML locator, the /proc CPU reader and the targets' profile window", () => {
  const allowed = (dep: string): boolean =>
    dep.startsWith("runner/attribution/") ||
    roomOf(dep) === "format" ||
    ["runner/matrix/locate.ts", "runner/measure/cpu.ts", "targets/common/profile-window.ts"].includes(dep);
  const breaches = [...graph].flatMap(([file, deps]) =>
    file.startsWith("runner/attribution/") ? deps.filter((d) => !allowed(d)).map((d) => `${file} imports ${d}`) : [],
  );
  assert.deepEqual(breaches, [], "the attribution engine stays free of the modes: the per-call mode and the CPU probe call it, not the other way round");
  assert.ok(graph.has("runner/attribution/attribute.ts"), "the rule reader sees the room");
});

test("no import cycle", () => {
  const state = new Map<string, "open" | "done">();
  const cycles: string[] = [];
  const visit = (file: string, path: string[]): void => {
    if (state.get(file) === "done") return;
    if (state.get(file) === "open") {
      cycles.push([...path.slice(path.indexOf(file)), file].join(" → "));
      return;
    }
    state.set(file, "open");
    for (const dep of graph.get(file) ?? []) if (graph.has(dep)) visit(dep, [...path, file]);
    state.set(file, "done");
  };
  for (const file of [...graph.keys()].sort()) visit(file, []);
  assert.deepEqual(cycles, []);
});

test("the rule reader sees imports (a sample it must find)", () => {
  assert.ok(
    graph.get("generators/render.ts")?.some((d) => roomOf(d) === "generators"),
    "render.ts imports its own room",
  );
  assert.ok(graph.get("runner/results/store.ts")?.includes("format/tsv.ts"), "store.ts imports format/tsv.ts");
});
