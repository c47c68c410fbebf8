/**
 * The matrix schema's compiled check kept beside its module (runner/matrix/schema-validator.ts):
 * compiled once per schema text, its Ajv standalone source written and loaded by later callers,
 * with the same verdicts and the same errors (`parentSchema` included: a message's hint comes from
 * it) as the function Ajv compiles; another schema text gets another file.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { parse } from "yaml";
import { Ajv } from "ajv";
import { root } from "../paths.js";
import { matrixSchemaValidator } from "../../runner/matrix/schema-validator.js";
import { UserError } from "../../format/errors.js";

const keptDir = join(root, "dist/runner/matrix");
const keptFiles = () => new Set(readdirSync(keptDir).filter((f) => /^matrix-schema-validator-[0-9a-f]{16}\.cjs$/.test(f)));

test("a schema's check is compiled once, kept, and the kept source gives the compiled function's verdicts and errors", () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-schema-validator-"));
  const schemaText = readFileSync(join(root, "matrix.schema.json"), "utf8");
  const schema = JSON.parse(schemaText) as { description?: string };
  schema.description = `${schema.description ?? ""} (a copy for ${dir})`; // a schema text no other caller has
  const schemaFile = join(dir, "matrix.schema.json");
  writeFileSync(schemaFile, JSON.stringify(schema));
  const before = keptFiles();
  const made: string[] = [];
  try {
    const first = matrixSchemaValidator(schemaFile);
    made.push(...[...keptFiles()].filter((f) => !before.has(f)));
    assert.equal(made.length, 1, "one file kept for the new schema text");
    // A second process loads the kept source rather than compiling: Ajv is never required there.
    const probe = spawnSync(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `import { matrixSchemaValidator } from ${JSON.stringify(join(keptDir, "schema-validator.js"))};
         import { createRequire } from "node:module";
         const v = matrixSchemaValidator(${JSON.stringify(schemaFile)});
         const loaded = Object.keys(createRequire(import.meta.url).cache);
         console.log(JSON.stringify({ kept: loaded.some((f) => f.endsWith(${JSON.stringify(made[0])})), ajvCore: loaded.some((f) => f.endsWith("ajv/dist/core.js")), ok: v({}) }));`,
      ],
      { encoding: "utf8" },
    );
    assert.equal(probe.status, 0, probe.stderr);
    assert.deepEqual(JSON.parse(probe.stdout), { kept: true, ajvCore: false, ok: false });
    const compiled = new Ajv({ allErrors: true, strict: false, verbose: true }).compile(schema);
    const kept = matrixSchemaValidator(schemaFile);
    const docs = [
      parse(readFileSync(join(root, "matrix.yaml"), "utf8")),
      parse(readFileSync(join(root, "test/fixtures/runner-small.yaml"), "utf8")),
      { version: 1, axes: [{ name: "transport", values: ["stdio", 3] }], targets: {}, surplus: true },
      {},
    ];
    for (const doc of docs) {
      for (const v of [first, kept]) {
        assert.equal(v(doc), compiled(doc));
        assert.deepEqual(v.errors ?? null, compiled.errors ?? null);
      }
    }
    assert.ok(
      compiled.errors?.some((e) => e.parentSchema !== undefined),
      "errors carry the failing schema",
    );
    schema.description += " (changed)";
    writeFileSync(schemaFile, JSON.stringify(schema));
    matrixSchemaValidator(schemaFile);
    const again = [...keptFiles()].filter((f) => !before.has(f) && !made.includes(f));
    made.push(...again);
    assert.equal(again.length, 1, "a changed schema text is compiled and kept under another name");
  } finally {
    for (const f of made) rmSync(join(keptDir, f), { force: true });
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a schema that is not JSON, or not a schema Ajv compiles, is one line naming the file and the fix", () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-schema-broken-"));
  const schemaFile = join(dir, "matrix.schema.json");
  try {
    for (const [text, problem] of [
      ["{", /not a JSON Schema Ajv compiles: .*JSON/],
      [
        JSON.stringify({ type: "object", properties: { a: { type: "integr" } } }),
        /not a JSON Schema Ajv compiles: schema is invalid: .* \(and \d+ more\)$|not a JSON Schema Ajv compiles: schema is invalid: [^,]*$/,
      ],
    ] as const) {
      writeFileSync(schemaFile, text);
      assert.throws(
        () => matrixSchemaValidator(schemaFile),
        (e: unknown) =>
          e instanceof UserError &&
          !e.message.includes("\n") &&
          e.message.startsWith(`${schemaFile}: `) &&
          problem.test(e.message.split("; fix: ")[0]!) &&
          e.message.endsWith("; fix: correct it, or restore the project's: git checkout -- matrix.schema.json"),
        text,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
