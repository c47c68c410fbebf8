/**
 * The compiled check of a matrix against matrix.schema.json. Ajv compiles a schema into a
 * JavaScript function; compiling this one takes about 0.1 s of CPU, paid by every command that
 * reads a matrix. So the function's source (Ajv's standalone code, ajv.js.org/standalone.html) is
 * kept beside this module, named by a digest of the schema's text, Ajv's version and the options,
 * and loaded instead of compiled while that digest holds: a changed schema, a new Ajv or new
 * options make another name, compiled on first use. A folder that cannot be written (an install
 * read-only to this user) only means compiling every time.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Ajv as AjvClass, ValidateFunction } from "ajv";
import { UserError } from "../../format/errors.js";
import { writeAtomic } from "../../format/files.js";

const require = createRequire(import.meta.url);

/** Ajv's options for the matrix: every error (one message per problem), unknown keywords allowed, the failing schema on each error (its `description` is the hint). */
const OPTIONS = { allErrors: true, strict: false, verbose: true } as const;

/**
 * The validation function of the schema in `schemaFile`, loaded from its kept source when there is
 * one for this schema, Ajv and options, else compiled (and its source kept for the next command).
 * @param schemaFile matrix.schema.json (JSON Schema draft-07)
 * @returns Ajv's function: `validate(data)` is true or false, its `errors` then set (with `parentSchema`)
 * @throws Error when the schema file cannot be read; UserError naming it when it is not JSON or not
 *   a schema Ajv compiles (an edit gone wrong)
 */
export function matrixSchemaValidator(schemaFile: string): ValidateFunction {
  const text = readFileSync(schemaFile, "utf8");
  const ajvVersion = (require("ajv/package.json") as { version: string }).version;
  const digest = createHash("sha256")
    .update(`${ajvVersion}\n${JSON.stringify(OPTIONS)}\n${text}`)
    .digest("hex")
    .slice(0, 16);
  const kept = join(dirname(fileURLToPath(import.meta.url)), `matrix-schema-validator-${digest}.cjs`);
  try {
    return require(kept) as ValidateFunction;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "MODULE_NOT_FOUND") throw e;
  }
  const { Ajv } = require("ajv") as { Ajv: typeof AjvClass };
  const standaloneCode = require("ajv/dist/standalone").default as (ajv: AjvClass, v: ValidateFunction) => string;
  const ajv = new Ajv({ ...OPTIONS, code: { source: true } });
  let validate: ValidateFunction;
  try {
    validate = ajv.compile(JSON.parse(text));
  } catch (e) {
    throw new UserError({
      file: schemaFile,
      problem: `not a JSON Schema Ajv compiles: ${firstProblem((e as Error).message)}`,
      fix: "correct it, or restore the project's: git checkout -- matrix.schema.json",
    });
  }
  try {
    writeAtomic(kept, standaloneCode(ajv, validate));
  } catch {
    /* read-only beside this module: compile again next time */
  }
  return validate;
}

/** The first of the problems Ajv lists in one message (`a, b, c`), with how many more it lists. */
function firstProblem(message: string): string {
  const [first, ...rest] = (message.split("\n")[0] ?? "").split(", ");
  return rest.length ? `${first} (and ${rest.length} more)` : (first ?? "");
}
