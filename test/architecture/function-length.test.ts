/**
 * Small functions (ARCHITECTURE.md, "Habits"): no function in format/, runner/,
 * generators/ or bin/ runs over 80 lines unless its leading comment says why, in a line that
 * begins `Longer than 80 lines:`. The functions that were longer before the rule are listed in
 * {@link LEFT_LONG}, each with the lines it had; the list may only shrink: a listed function that
 * is split (or gone) must leave the list, and one that grows fails as a new one would.
 * Function spans are read with the TypeScript compiler's parser (declarations, methods, arrow
 * functions and function expressions with a body), from the first line of the function to its
 * last.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { root } from "../paths.js";

const ROOMS = ["format", "runner", "generators", "bin"];
const LIMIT = 80;

/**
 * `file name` → the lines it had when the rule came: functions left to split (issue "the results
 * format owned whole"). Remove an entry when its function is split below the limit.
 */
const LEFT_LONG: Readonly<Record<string, number>> = {};

/** Every .ts file under `dir` (repo-relative). */
function sources(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** A function over the limit: where, its name, its lines, and whether its leading comment gives the reason. */
interface LongFunction {
  key: string;
  lines: number;
  reasoned: boolean;
}

function nameOf(n: ts.Node): string {
  const named = n as ts.FunctionDeclaration | ts.MethodDeclaration;
  if (named.name) return named.name.getText();
  const p = n.parent;
  if (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) return p.name.getText();
  return "(anonymous)";
}

/** The functions over the limit in `text`, the source of `file`. */
function longFunctions(file: string, text: string): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (n: ts.Node): void => {
    const fn = ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) || ts.isArrowFunction(n) || ts.isFunctionExpression(n);
    if (fn && (n as ts.FunctionLikeDeclarationBase).body) {
      const first = sf.getLineAndCharacterOfPosition(n.getStart()).line;
      const last = sf.getLineAndCharacterOfPosition(n.getEnd()).line;
      if (last - first + 1 > LIMIT) {
        // The leading comments of the function, or of the statement that holds it (a `const f = () => …`).
        const holder = ts.isFunctionDeclaration(n) || ts.isMethodDeclaration(n) ? n : (n.parent?.parent?.parent ?? n);
        const comments = (ts.getLeadingCommentRanges(text, holder.getFullStart()) ?? []).map((c) => text.slice(c.pos, c.end)).join("\n");
        out.push({ key: `${file} ${nameOf(n)}`, lines: last - first + 1, reasoned: /^\s*(\*|\/\/)\s*Longer than 80 lines: \S/m.test(comments) });
      }
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const found = ROOMS.flatMap(sources).flatMap((f) => longFunctions(f, readFileSync(join(root, f), "utf8")));

test(`no function over ${LIMIT} lines without its reason, but those listed before the rule`, () => {
  const breaches = found
    .filter((f) => !f.reasoned && !(LEFT_LONG[f.key] !== undefined && f.lines <= LEFT_LONG[f.key]!))
    .map((f) => `${f.key}: ${f.lines} lines${LEFT_LONG[f.key] !== undefined ? ` (listed at ${LEFT_LONG[f.key]}: it grew)` : ""}`);
  assert.deepEqual(breaches, [], "split it, or say why in a comment line `Longer than 80 lines: …` before it");
});

test("the list of functions left long only shrinks: each listed one is still there and still over the limit", () => {
  const keys = new Set(found.filter((f) => !f.reasoned).map((f) => f.key));
  assert.deepEqual(
    Object.keys(LEFT_LONG).filter((k) => !keys.has(k)),
    [],
    "these are split or gone: take them off LEFT_LONG in test/architecture/function-length.test.ts",
  );
});

test("the reader finds a long function and its reason (the rule can fail)", () => {
  const body = Array.from({ length: LIMIT + 1 }, (_, i) => `  const x${i} = ${i};`).join("\n");
  const probe = (comment: string): LongFunction[] =>
    longFunctions("probe.ts", `${comment}\nexport function big(): void {\n${body}\n}\nconst small = (): number => 1;\n`);
  assert.deepEqual(probe("/** A function. */"), [{ key: "probe.ts big", lines: LIMIT + 3, reasoned: false }]);
  assert.deepEqual(probe("/**\n * A function.\n * Longer than 80 lines: one state machine over the bytes.\n */"), [
    { key: "probe.ts big", lines: LIMIT + 3, reasoned: true },
  ]);
  const arrow = longFunctions("probe.ts", `// Longer than 80 lines: a table of rules.\nconst big = (): void => {\n${body}\n};\n`);
  assert.deepEqual(arrow, [{ key: "probe.ts big", lines: LIMIT + 3, reasoned: true }]);
});
