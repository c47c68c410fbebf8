/**
 * matrix.schema.json is complete: it is what the parser validates with (runner/matrix/parse.ts
 * compiles it, unknown keys refused), so every key the parser takes is in it; here, that it names
 * every built-in axis (BUILTIN_AXES, the axis-name examples an editor offers) and that every key it
 * declares says what it means (the text an editor shows beside it).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BUILTIN_AXES, parseMatrix } from "../../runner/matrix/parse.js";
import { root } from "../paths.js";

type Schema = Record<string, unknown>;
const schema = JSON.parse(readFileSync(join(root, "matrix.schema.json"), "utf8")) as Schema;

/** Every declared key of `s` (paths like `targets.*.build.command`) without a description, the conditions of if/then/not aside. */
function undescribed(s: unknown, path: string): string[] {
  if (typeof s !== "object" || s === null) return [];
  if (Array.isArray(s)) return s.flatMap((x, i) => undescribed(x, `${path}[${i}]`));
  const out: string[] = [];
  for (const [k, v] of Object.entries(s as Schema)) {
    if (k === "if" || k === "not") continue;
    if (k === "properties") {
      for (const [name, p] of Object.entries(v as Schema)) {
        const prop = p as Schema;
        if (prop.description === undefined && prop.$ref === undefined && path.split(".").at(-1) !== "then") out.push(`${path}.${name}`);
        out.push(...undescribed(prop, `${path}.${name}`));
      }
    } else out.push(...undescribed(v, k === "additionalProperties" || k === "items" ? `${path}.*` : `${path}.${k}`));
  }
  return out;
}

test("the schema names every built-in axis, version included", () => {
  const axes = (schema.properties as Schema).axes as { description: string; items: { properties: { name: { examples: string[]; description: string } } } };
  assert.deepEqual(axes.items.properties.name.examples, [...BUILTIN_AXES]);
  for (const name of BUILTIN_AXES) {
    assert.match(axes.description, new RegExp(`\\b${name}\\b`), `the axes' description names ${name}`);
    assert.match(axes.items.properties.name.description, new RegExp(`\\b${name}\\b`), `the axis name's description names ${name}`);
  }
});

test("every key the schema declares says what it means", () => {
  assert.deepEqual(undescribed(schema, ""), []);
});

test("the schema is the parser's: a key it does not declare is refused at its line, naming the keys it allows", () => {
  const text = "version: 1\naxes:\n  - { name: target, values: [t] }\ntargets:\n  t: { stdio: { argv: [node, x.js] }, colour: blue }\n";
  assert.throws(
    () => parseMatrix(text, "m.yaml"),
    (e: Error) => /^m\.yaml:5:\d+: unknown key "colour" in .* allowed keys: .*\bversions\b/.test(e.message),
  );
});
