/**
 * Read a matrix file: YAML with source positions (the `yaml` package), validated against
 * matrix.schema.json (Ajv), then checked for meaning (targets named by the target axis exist,
 * placeholders name axes). Every problem is a UserError `file:line:column: what — fix`.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { Ajv, type ErrorObject } from "ajv";
import { LineCounter, parseDocument, isNode, type Document } from "yaml";
import { UserError } from "../errors.js";
import { repoRoot } from "../paths.js";
import type { Axis, Matrix, Target, TargetCommand } from "./types.js";

/** Axis names with a meaning to the runner; every other axis is passed through to targets. */
export const BUILTIN_AXES = ["target", "client", "transport", "revision", "flow", "pinning"] as const;

const DEFAULT_TIMEOUT_S = 30;

let validator: ReturnType<Ajv["compile"]> | undefined;
function validate(data: unknown): ErrorObject[] {
  if (!validator) {
    const schema = JSON.parse(readFileSync(resolve(repoRoot, "matrix.schema.json"), "utf8"));
    validator = new Ajv({ allErrors: false, strict: false }).compile(schema);
  }
  return validator(data) ? [] : (validator.errors ?? []);
}

/** Position `file:line:col` of the YAML node at `path` (or its nearest existing parent). */
function where(file: string, doc: Document, lc: LineCounter, path: (string | number)[]): string {
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = lc.linePos(node.range[0]);
      return `${file}:${pos.line}:${pos.col}`;
    }
  }
  return `${file}:1:1`;
}

function schemaMessage(e: ErrorObject): string {
  const at = e.instancePath || "(top level)";
  switch (e.keyword) {
    case "additionalProperties":
      return `unknown key "${String(e.params.additionalProperty)}" in ${at} — remove it or fix its spelling (see matrix.schema.json for the keys allowed)`;
    case "required":
      return `${at} lacks "${String(e.params.missingProperty)}" — add it`;
    case "type":
      return `${at} must be ${String(e.params.type)} — change the value's type`;
    case "minimum":
      return `${at} must be ≥ ${String(e.params.limit)} — counts are whole numbers, 0 means zero`;
    case "const":
      return `${at} must be ${JSON.stringify(e.params.allowedValue)} — set it so`;
    case "minItems":
      return `${at} must have at least ${String(e.params.limit)} item(s) — add one`;
    case "pattern":
      return `${at} must match ${String(e.params.pattern)} — use lower-case letters, digits and _`;
    default:
      return `${at} ${e.message ?? "is invalid"} — fix it per matrix.schema.json`;
  }
}

interface RawMatrix {
  title?: string;
  repeats?: number;
  timeoutSeconds?: number;
  axes: { name: string; values: (string | number)[]; id?: string }[];
  targets: Record<string, { label?: string; package?: string; version?: string; revisions?: string[]; stdio?: { argv: string[]; env?: Record<string, string> }; http?: { argv: string[]; env?: Record<string, string> } }>;
}

/**
 * Parse and validate a matrix file.
 * @param path matrix file (YAML)
 * @returns the matrix with defaults applied (repeats 1, timeout 30 s, id template "{}")
 * @throws UserError naming file:line:column, what is wrong and the fix
 */
export function loadMatrix(path: string): Matrix {
  const file = resolve(path);
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch {
    throw new UserError(`${path}: cannot read the matrix file — check the path (default: matrix.yaml in the current folder)`);
  }
  return parseMatrix(text.toString("utf8"), path, createHash("sha256").update(text).digest("hex"));
}

/** Parse matrix text; `name` is used in messages. @throws UserError as loadMatrix. */
export function parseMatrix(text: string, name: string, sha256 = createHash("sha256").update(text).digest("hex")): Matrix {
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, uniqueKeys: true, prettyErrors: false });
  const first = doc.errors[0];
  if (first) {
    const pos = lc.linePos(first.pos[0]);
    throw new UserError(`${name}:${pos.line}:${pos.col}: invalid YAML: ${first.message.split("\n")[0]} — fix the syntax at that line`);
  }
  const data = doc.toJS() as unknown;
  const errs = validate(data);
  if (errs[0]) {
    const path = errs[0].instancePath.split("/").slice(1).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    if (errs[0].keyword === "additionalProperties") path.push(String(errs[0].params.additionalProperty));
    throw new UserError(`${where(name, doc, lc, path)}: ${schemaMessage(errs[0])}`);
  }
  const raw = data as RawMatrix;
  const at = (...p: (string | number)[]) => where(name, doc, lc, p);

  const axes: Axis[] = raw.axes.map((a) => ({ name: a.name, values: a.values.map(String), id: a.id ?? "{}" }));
  const seen = new Set<string>();
  axes.forEach((a, i) => {
    if (seen.has(a.name)) throw new UserError(`${at("axes", i, "name")}: axis "${a.name}" is declared twice — merge the two`);
    seen.add(a.name);
    const vs = new Set<string>();
    a.values.forEach((v, j) => {
      if (vs.has(v)) throw new UserError(`${at("axes", i, "values", j)}: value "${v}" repeats in axis "${a.name}" — remove the duplicate`);
      vs.add(v);
    });
  });
  const axisNames = axes.map((a) => a.name);
  const targets: Record<string, Target> = {};
  for (const [tname, t] of Object.entries(raw.targets)) {
    const commands: Target["commands"] = {};
    for (const tr of ["stdio", "http"] as const) {
      const c = t[tr];
      if (!c) continue;
      const cmd: TargetCommand = { argv: c.argv, env: c.env ?? {} };
      const texts = [...cmd.argv, ...Object.values(cmd.env)];
      for (const s of texts) {
        for (const m of s.matchAll(/\{([^}]*)\}/g)) {
          const ph = m[1]!;
          if (ph !== "port" && !axisNames.includes(ph)) {
            throw new UserError(`${at("targets", tname, tr)}: placeholder {${ph}} names no axis — use {port} or one of: ${axisNames.map((n) => `{${n}}`).join(", ")}`);
          }
        }
      }
      commands[tr] = cmd;
    }
    targets[tname] = { name: tname, label: t.label ?? tname, package: t.package, version: t.version, revisions: t.revisions, commands };
  }
  const targetAxis = axes.findIndex((a) => a.name === "target");
  if (targetAxis < 0) throw new UserError(`${at("axes")}: no "target" axis — add one naming entries of targets:`);
  axes[targetAxis]!.values.forEach((v, j) => {
    if (!targets[v]) throw new UserError(`${at("axes", targetAxis, "values", j)}: unknown target "${v}" — define it under targets: or use one of: ${Object.keys(targets).join(", ")}`);
  });
  return {
    file: resolve(name),
    sha256,
    title: raw.title ?? "wirecost report",
    repeats: raw.repeats ?? 1,
    timeoutMs: (raw.timeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000,
    axes,
    targets,
  };
}
