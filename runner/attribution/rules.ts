/**
 * Stage rules: which frames of a profile belong to which stage, declared as data per SDK beside
 * its target (`targets/<t>/stages.yaml`, named by the matrix's `profile:`), so a new SDK gets its
 * stage table by writing rules, not code (README "Writing stage rules for a new SDK"). The file:
 *
 *     version: 1
 *     process: server            # the process these rules describe: server | client (any: a shared file, included only)
 *     include: [../common/node.stages.yaml]   # optional: more rule files, tried after these
 *     rules:                     # per sample: frames from the LEAF up; at each frame the rules in order; first match wins
 *       - { stage: parse-validate, frame: "parse_and_validate" }    # frame: a JavaScript RegExp source
 *       - { stage: build-result, frame: "zod/", under: "validateResult" }   # under: a caller must match too
 *       - { stage: idle, frame: "^EpollSelector\\.select " }       # idle: an off-CPU sample, left out of the shares
 *
 * A stage is one of {@link RULE_STAGES} (runner/attribution/stages.ts). An included file's
 * `process` must equal the including file's or be `any` (a file shared by both, e.g. a runtime's
 * own frames); includes nest (a cycle is refused).
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { LineCounter, isMap, isSeq, parseDocument } from "yaml";
import { UserError } from "../../format/errors.js";
import { Locator } from "../matrix/locate.js";
import { RULE_STAGES } from "./stages.js";

/** One rule: a sample whose frame matches `frame` (and, with `under`, one of that frame's callers matches `under`) belongs to `stage`. */
export interface StageRule {
  stage: string;
  frame: RegExp;
  /** Optional: a caller (any frame nearer the root) must match it, e.g. a validator called while building the result. */
  under?: RegExp;
  /** `file:line:col` of the rule (for the page's "which rule" and for errors). */
  at: string;
}

/** The rules of one process, in match order (a file's own rules, then its includes'). */
export interface StageRules {
  process: "server" | "client" | "any";
  rules: StageRule[];
  /** The file the rules were loaded from (absolute). */
  file: string;
}

const FIX = 'see README "Writing stage rules for a new SDK"';

/**
 * Check that rules loaded from `file` describe the process the matrix names them for: a file of
 * `process: client` given as a server's `profile.stages` (or the reverse, as `clientStages`) would
 * split one process's samples by the other's rules.
 * @throws UserError one line naming the file, its `process`, the key that names it and the fix
 */
export function checkRulesRole(rules: StageRules, role: "server" | "client"): void {
  if (rules.process === role) return;
  const key = role === "server" ? "profile.stages" : "profile.clientStages";
  throw new UserError(
    `${rules.file}: process: ${rules.process}, but the matrix names it as the ${role}'s rules (${key}); fix: write process: ${role} in it, or name it under ${role === "server" ? "profile.clientStages" : "profile.stages"}`,
  );
}

/**
 * Load a stage-rules file (and its includes).
 * @param file path of the YAML file
 * @throws UserError one line `file:line:col: problem; fix: …`: a missing file, YAML that does not
 *   parse, version other than 1, process other than server|client, a rule without `stage` and
 *   `frame`, a stage outside the vocabulary, a frame that is not a valid RegExp, an include that is
 *   missing, cyclic or describes another process
 */
export function loadStageRules(file: string, seen: readonly string[] = []): StageRules {
  const abs = resolve(file);
  if (!existsSync(abs)) throw new UserError(`${file}: stage-rules file not found; fix: write it or correct the path in the matrix's profile: entry (${FIX})`);
  if (seen.includes(abs)) throw new UserError(`${file}: included again by ${seen.at(-1)} (an include cycle); fix: remove one of the includes`);
  const lc = new LineCounter();
  const doc = parseDocument(readFileSync(abs, "utf8"), { lineCounter: lc, prettyErrors: false });
  const loc = new Locator(file, doc, lc);
  if (doc.errors.length > 0) {
    const e = doc.errors[0]!;
    const p = lc.linePos(e.pos[0]);
    throw new UserError(`${file}:${p.line}:${p.col}: not valid YAML (${e.message.split("\n")[0]}); fix: correct the YAML`);
  }
  const fail = (path: (string | number)[], problem: string, fix: string): never => {
    throw new UserError(`${loc.at(path)}: ${problem}; fix: ${fix}`);
  };
  const data = doc.toJS() as unknown;
  if (!isMap(doc.contents) || typeof data !== "object" || data === null) fail([], "a stage-rules file is a map with version, process and rules", FIX);
  const d = data as Record<string, unknown>;
  for (const k of Object.keys(d))
    if (!["version", "process", "include", "rules"].includes(k))
      throw new UserError(`${loc.key([], k)}: unknown key "${k}"; fix: use version, process, include, rules`);
  if (d.version !== 1) fail(["version"], `version is ${JSON.stringify(d.version)}`, "write version: 1");
  const included = seen.length > 0;
  if (d.process !== "server" && d.process !== "client" && !(included && d.process === "any"))
    fail(
      ["process"],
      `process is ${JSON.stringify(d.process)}`,
      included ? "write process: server, client or any" : "write process: server or process: client",
    );
  const process = d.process as "server" | "client" | "any";
  if (!Array.isArray(d.rules) || !isSeq(doc.get("rules"))) fail(["rules"], "rules is not a list", "write rules: as a list of { stage, frame }");
  const rules: StageRule[] = (d.rules as unknown[]).map((r, i) => {
    const at = loc.at(["rules", i]);
    if (typeof r !== "object" || r === null || Array.isArray(r)) return fail(["rules", i], "a rule is a map { stage, frame }", FIX);
    const rule = r as Record<string, unknown>;
    for (const k of Object.keys(rule))
      if (k !== "stage" && k !== "frame" && k !== "under")
        throw new UserError(`${loc.key(["rules", i], k)}: unknown key "${k}" in a rule; fix: a rule has stage, frame and under only`);
    if (typeof rule.stage !== "string" || !RULE_STAGES.includes(rule.stage))
      fail(["rules", i, "stage"], `stage ${JSON.stringify(rule.stage)} is not a stage a rule can name`, `use one of ${RULE_STAGES.join(", ")}`);
    if (typeof rule.frame !== "string" || rule.frame === "")
      fail(["rules", i, "frame"], "frame is not a non-empty string", "write frame: a RegExp source matched against the frame text");
    let frame: RegExp;
    try {
      frame = new RegExp(rule.frame as string);
    } catch (e) {
      return fail(
        ["rules", i, "frame"],
        `frame is not a valid RegExp (${(e as Error).message})`,
        "escape the RegExp (YAML double quotes need \\\\ for one backslash)",
      );
    }
    let under: RegExp | undefined;
    if (rule.under !== undefined) {
      if (typeof rule.under !== "string" || rule.under === "")
        return fail(["rules", i, "under"], "under is not a non-empty string", "write under: a RegExp source");
      try {
        under = new RegExp(rule.under);
      } catch (e) {
        return fail(["rules", i, "under"], `under is not a valid RegExp (${(e as Error).message})`, "escape the RegExp");
      }
    }
    return { stage: rule.stage as string, frame, ...(under ? { under } : {}), at };
  });
  const includes = d.include === undefined ? [] : d.include;
  if (!Array.isArray(includes) || includes.some((x) => typeof x !== "string"))
    fail(["include"], "include is not a list of paths", "write include: [relative/path.yaml]");
  for (const [i, inc] of (includes as string[]).entries()) {
    const incFile = resolve(dirname(abs), inc);
    const sub = loadStageRules(incFile, [...seen, abs]);
    if (sub.process !== process && sub.process !== "any")
      fail(["include", i], `${inc} describes process ${sub.process}, this file ${process}`, "include only rules of the same process");
    rules.push(...sub.rules);
  }
  return { process, rules, file: abs };
}

/** Does a frame nearer the root than `i` match `under`? */
function callerMatches(frames: readonly string[], i: number, under: RegExp): boolean {
  for (let j = i - 1; j >= 0; j--) if (under.test(frames[j]!)) return true;
  return false;
}

/**
 * The stage of one sample's stack: frames tried from the leaf up, at each frame the rules in
 * order; the first match wins. `undefined` when no rule matches any frame (unclassified).
 * @param frames root to leaf
 */
export function stageOfStack(frames: readonly string[], rules: readonly StageRule[]): string | undefined {
  for (let i = frames.length - 1; i >= 0; i--) {
    const f = frames[i]!;
    for (const r of rules) if (r.frame.test(f) && (!r.under || callerMatches(frames, i, r.under))) return r.stage;
  }
  return undefined;
}
