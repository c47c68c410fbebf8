/**
 * Benchmark of the matrix schema's check at a command's start (runner/matrix/schema-validator.ts):
 * CPU time of `matrixSchemaValidator` in a fresh Node process when Ajv's compiled source is kept
 * beside the module (loaded) and when it is not (Ajv loaded and the schema compiled), rounds
 * alternated so drift lands on both. "Not kept" uses a copy of matrix.schema.json with one more
 * word in its description (a schema text no file is kept for), whose kept file is removed after
 * each round.
 *
 *   node dist/bench/matrix-schema.js [--rounds R]
 *
 * Prints the median CPU ms (user + system, process.cpuUsage around the call, module loading
 * included) of each and the ratio kept / compiled (goal ≤ 0.5).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { median } from "simple-statistics";

const root = resolve(fileURLToPath(import.meta.url), "../../..");
const moduleDir = join(root, "dist/runner/matrix");

/** CPU ms of one `matrixSchemaValidator(schemaFile)` call in a new Node process, its imports included. */
function cpuMs(schemaFile: string): number {
  const script = `const c0 = process.cpuUsage();
const { matrixSchemaValidator } = await import(${JSON.stringify(join(moduleDir, "schema-validator.js"))});
matrixSchemaValidator(${JSON.stringify(schemaFile)});
const c = process.cpuUsage(c0);
console.log((c.user + c.system) / 1000);`;
  return Number(execFileSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" }).trim());
}

const kept = () => new Set(readdirSync(moduleDir).filter((f) => f.startsWith("matrix-schema-validator-")));

const { values } = parseArgs({ options: { rounds: { type: "string", default: "15" } } });
const rounds = Number(values.rounds);
if (!/^[1-9][0-9]*$/.test(values.rounds)) {
  process.stderr.write(`matrix-schema: --rounds ${values.rounds}: expected a whole number from 1\n`);
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), "wirecost-bench-schema-"));
const real = join(root, "matrix.schema.json");
const copy = join(dir, "matrix.schema.json");
const schema = JSON.parse(readFileSync(real, "utf8")) as { description: string };
writeFileSync(copy, JSON.stringify({ ...schema, description: `${schema.description} (bench copy)` }));
cpuMs(real); // the real schema's source kept before the first round
const loaded: number[] = [];
const compiled: number[] = [];
try {
  for (let r = 0; r < rounds; r++) {
    loaded.push(cpuMs(real));
    const before = kept();
    compiled.push(cpuMs(copy));
    for (const f of kept()) if (!before.has(f)) rmSync(join(moduleDir, f));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
const [k, c] = [median(loaded), median(compiled)];
console.log(
  `matrix schema check at start, median of ${rounds} rounds: kept source ${k.toFixed(0)} ms CPU, compiled ${c.toFixed(0)} ms CPU; ratio ${(k / c).toFixed(2)} (goal ≤ 0.5)`,
);
