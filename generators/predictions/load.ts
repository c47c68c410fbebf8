/**
 * Read `predictions.yaml`: predictions written down before a run, each with checks written as
 * expressions over results. The format:
 *
 * ```yaml
 * version: 1
 * predictions:
 *   - id: P1                     # [A-Za-z0-9_-]+, unique
 *     text: The plain flow has seven JSON-RPC messages under 2025-11-25 …
 *     registered: before-run     # optional: before-run, or after-trial-runs (written after runs of this matrix)
 *     checks:
 *       - claim: seven messages under the old revision   # one line, shown with the verdict
 *         cells:                  # alias → axis values selecting configurations
 *           old: { flow: plain, revision: "2025-11-25" }
 *         expect: old.jsonrpc_c2s + old.jsonrpc_s2c == 7   # filtrex expression over alias.metric medians
 * ```
 */
import { readFileSync } from "node:fs";
import { UserError } from "../../format/errors.js";
import { parseYaml, yamlValue } from "../../format/yaml.js";

/** One check of a prediction. */
export interface PredictionCheck {
  /** What the check tests, one line of plain text. */
  claim: string;
  /** Alias → axis name → value; each alias selects the configurations whose axes all match. */
  cells: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** A filtrex expression over `alias.metric` (medians of `medians.tsv`). */
  expect: string;
}

/** One prediction: id, its text and its checks. */
export interface Prediction {
  /** Identifier, `[A-Za-z0-9_-]+`, unique in the file. */
  id: string;
  /** The prediction as written, plain text. */
  text: string;
  /** Checks, in file order (may be empty: the prediction is then untested). */
  checks: readonly PredictionCheck[];
  /**
   * How the prediction was registered, as its author declares it: `before-run`, or
   * `after-trial-runs` (written after runs of this matrix: never labelled pre-registered);
   * undefined when not declared (the page then relies on the git check alone).
   */
  registered: Registration | undefined;
}

/** Declared registration of a prediction (the `registered:` key). */
export type Registration = "before-run" | "after-trial-runs";
/** The values `registered:` takes. */
export const REGISTRATIONS: readonly Registration[] = ["before-run", "after-trial-runs"];

const FIX = "see the format in generators/predictions/load.ts, or delete predictions.yaml to render without predictions";
const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Parse a predictions file.
 * @param file path of `predictions.yaml`
 * @throws UserError naming `file:line:col` and the key when the YAML is invalid or a field is
 *   missing, of the wrong type, or an id repeats
 */
export function readPredictions(file: string): Prediction[] {
  const text = readFileSync(file, "utf8");
  const { doc, lines: lineCounter } = parseYaml(text, file);
  const fail = (offset: number | undefined, key: string, problem: string): UserError => {
    const pos = lineCounter.linePos(offset ?? 0);
    return new UserError({ file: `${file}:${pos.line}:${pos.col}`, key, problem, fix: FIX });
  };
  if (doc.errors.length > 0) {
    const e = doc.errors[0];
    throw fail(e?.pos[0], "(yaml)", e?.message.split("\n")[0] ?? "invalid YAML");
  }
  const root: unknown = yamlValue(doc, lineCounter, file);
  const offsetOf = (path: ReadonlyArray<string | number>): number | undefined => {
    const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined;
    return node?.range?.[0];
  };
  const obj = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
  if (!obj(root) || root["version"] !== 1) throw fail(offsetOf(["version"]), "version", "expected `version: 1`");
  const list = root["predictions"];
  if (!Array.isArray(list)) throw fail(offsetOf(["predictions"]), "predictions", "expected a list of predictions");
  const seen = new Set<string>();
  return list.map((p: unknown, i): Prediction => {
    const at = (...rest: Array<string | number>): number | undefined => offsetOf(["predictions", i, ...rest]);
    if (!obj(p)) throw fail(at(), `predictions[${i}]`, "expected a mapping with id, text and checks");
    const id = p["id"];
    if (typeof id !== "string" || !/^[A-Za-z0-9_-]+$/.test(id)) {
      throw fail(at("id"), `predictions[${i}].id`, "expected an id of letters, digits, `_` or `-`");
    }
    if (seen.has(id)) throw fail(at("id"), `predictions[${i}].id`, `id \`${id}\` appears twice`);
    seen.add(id);
    const ptext = p["text"];
    if (typeof ptext !== "string") throw fail(at("text"), `${id}.text`, "expected the prediction's text");
    const registered = p["registered"];
    if (registered !== undefined && !REGISTRATIONS.includes(registered as Registration)) {
      throw fail(at("registered"), `${id}.registered`, `expected one of ${REGISTRATIONS.join(", ")}, not \`${String(registered)}\``);
    }
    const checks = p["checks"] ?? [];
    if (!Array.isArray(checks)) throw fail(at("checks"), `${id}.checks`, "expected a list of checks");
    return {
      id,
      text: ptext.trim(),
      registered: registered as Registration | undefined,
      checks: checks.map((c: unknown, j): PredictionCheck => {
        const key = `${id}.checks[${j}]`;
        if (!obj(c)) throw fail(at("checks", j), key, "expected a mapping with claim, cells and expect");
        const { claim, cells, expect } = c;
        if (typeof claim !== "string") throw fail(at("checks", j), `${key}.claim`, "expected one line of text");
        if (typeof expect !== "string") throw fail(at("checks", j), `${key}.expect`, "expected an expression");
        if (!obj(cells)) throw fail(at("checks", j, "cells"), `${key}.cells`, "expected alias → axis values");
        const aliases = new Map<string, Map<string, string>>();
        for (const [alias, sel] of Object.entries(cells)) {
          if (!IDENT.test(alias)) throw fail(at("checks", j, "cells"), `${key}.cells.${alias}`, "alias must be an identifier");
          if (!obj(sel)) throw fail(at("checks", j, "cells", alias), `${key}.cells.${alias}`, "expected axis: value pairs");
          aliases.set(alias, new Map(Object.entries(sel).map(([k, v]) => [k, String(v)] as const)));
        }
        return { claim: claim.trim(), cells: aliases, expect: expect.trim() };
      }),
    };
  });
}
