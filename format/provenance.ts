/**
 * Read and check `provenance.json`: where and with what the results were produced. The one check
 * of that file kind, for every reader (render, compare, merge, recount).
 */
import { UserError, readResultsFile } from "./errors.js";
import type { Provenance as ProvenanceRecord } from "./schema.js";
import { compareCodeUnits } from "./order.js";
import { readBuilds, type TargetBuildInfo } from "./builds.js";

/**
 * Who a bytes report is when its results do not say (folders written before `report` was
 * recorded): every such report was the MCP one.
 */
export const LEGACY_REPORT: Readonly<{ title: string; slug: string }> = { title: "MCP on the wire", slug: "mcp-on-the-wire" };

/** A report slug: lower-case letters and digits joined by single hyphens (the matrix's `slug:` rule). */
const SLUG = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** The provenance fields the site shows (schemaVersion 1). Unknown extra keys are ignored. */
export interface Provenance {
  /** Version of the provenance format; this reader knows `1`. */
  schemaVersion: 1;
  /** The tool that wrote the results. */
  tool: { name: string; version: string };
  /** Commit of the checkout that ran (null outside a git checkout) and whether it had local changes. */
  git: { commit: string | null; dirty: boolean };
  /** Matrix file that was run and its SHA-256 (hex). */
  matrix: { file: string; sha256: string };
  /**
   * The report's title and slug (file stem of its pages), from the optional key `report` (the
   * matrix's `title:` and `slug:`); {@link LEGACY_REPORT} when absent.
   */
  report: { title: string; slug: string };
  /**
   * Client name → protocol its driver speaks (`mcp`, `jsonrpc`, …), from the optional key
   * `clients.<name>.protocol`; undefined when absent (results written before it: every client spoke MCP).
   */
  clientProtocols: ReadonlyMap<string, string> | undefined;
  /** Clients declared in the matrix (`clients.<name>.declared`, run as commands) → their label (the name when none); empty when none. */
  declaredClients: ReadonlyMap<string, string>;
  /** Resolved version of every target package, sorted by package name. */
  packages: ReadonlyArray<{ name: string; version: string }>;
  /** Node.js version (e.g. `v20.20.2`). */
  node: string;
  /** Operating system: `process.platform`, kernel release, `process.arch`. */
  os: { platform: string; release: string; arch: string };
  /** CPU model string and logical core count. */
  cpu: { model: string; cores: number };
  /** Start of the run, as written by the runner (ISO 8601). */
  startedAt: string;
  /** End of the run, as written by the runner (ISO 8601). */
  endedAt: string;
  /** Command line that produced the results, joined with spaces when stored as an argv array. */
  command: string;
  /**
   * Human labels of targets by target name (axis value), from the optional provenance key
   * `targets.<name>.label` (the matrix's `targets.<name>.label`); empty when absent.
   */
  targetLabels: ReadonlyMap<string, string>;
  /** Target name → the package it was declared with (`targets.<name>.package`), when recorded. */
  targetPackages: ReadonlyMap<string, string>;
  /** Targets built before they ran (optional key `builds`), sorted by name; empty when none. */
  builds: readonly TargetBuildInfo[];
  /**
   * The flows the configurations ran → their description (when declared) and steps in words
   * (optional key `flows`); empty in results written before it.
   */
  flows: ReadonlyMap<string, { description?: string; steps: string }>;
  /** The tokenizers of the token columns, each with its package version (optional key `tokenizers`); empty before tokens were counted. */
  tokenizers: readonly string[];
}

const FIX = "regenerate the results with `npx wirecost run`, or correct the key by hand";

/**
 * Read and check `provenance.json`.
 * @param file path of `provenance.json`
 * @param missingFix fix printed when the file is missing
 * @throws UserError naming the file (and the key) when it is missing, is not JSON, has a
 *   `schemaVersion` other than 1, or lacks a key or has one of the wrong type (`report.slug`
 *   must also be a slug: `[a-z0-9]` runs joined by single hyphens)
 */
export function readProvenance(file: string, missingFix: string): Provenance {
  return readProvenanceFile(file, missingFix).view;
}

/**
 * Read and check `provenance.json` as {@link readProvenance} does, for a reader that also needs
 * the record as written (merge and recount write it back).
 * @returns `record`: the JSON as written (checked); `view`: as {@link readProvenance} returns it
 * @throws UserError as {@link readProvenance}
 */
export function readProvenanceFile(file: string, missingFix: string): { record: ProvenanceRecord; view: Provenance } {
  const text = readResultsFile(file, missingFix);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new UserError({ file, problem: `not valid JSON (${(err as Error).message})`, fix: FIX });
  }
  const at = (path: string): unknown => {
    let v: unknown = json;
    for (const part of path.split(".")) {
      v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[part] : undefined;
    }
    return v;
  };
  const wrong = (key: string, want: string): UserError => new UserError({ file, key, problem: `expected \`${key}\` to be ${want}`, fix: FIX });
  const str = (key: string): string => {
    const v = at(key);
    if (typeof v !== "string") throw wrong(key, "a string");
    return v;
  };
  const version = at("schemaVersion");
  if (version !== 1) {
    throw new UserError({
      file,
      key: "schemaVersion",
      problem: `unsupported schemaVersion ${JSON.stringify(version)} (this wirecost reads 1)`,
      fix: "use the wirecost version that wrote these results, or regenerate them with `npx wirecost run`",
    });
  }
  const commit = at("git.commit");
  if (commit !== null && typeof commit !== "string") throw wrong("git.commit", "a string or null");
  const dirty = at("git.dirty");
  if (typeof dirty !== "boolean") throw wrong("git.dirty", "true or false");
  const cores = at("cpu.cores");
  if (typeof cores !== "number" || !Number.isSafeInteger(cores)) throw wrong("cpu.cores", "an integer");
  const pkgs = at("packages");
  if (typeof pkgs !== "object" || pkgs === null || Array.isArray(pkgs)) {
    throw wrong("packages", "an object of package name → version");
  }
  const packages = Object.entries(pkgs as Record<string, unknown>).map(([name, v]) => {
    if (typeof v !== "string") throw wrong(`packages.${name}`, "a version string");
    return { name, version: v };
  });
  packages.sort((a, b) => compareCodeUnits(a.name, b.name));
  const cmd = at("command");
  let command: string;
  if (typeof cmd === "string") command = cmd;
  else if (Array.isArray(cmd) && cmd.every((a): a is string => typeof a === "string")) command = cmd.join(" ");
  else throw wrong("command", "a string or an array of strings");
  const targets = at("targets");
  const targetLabels = new Map<string, string>();
  const targetPackages = new Map<string, string>();
  if (targets !== undefined) {
    if (typeof targets !== "object" || targets === null || Array.isArray(targets)) {
      throw wrong("targets", "an object of target name → { label }");
    }
    for (const [name, entry] of Object.entries(targets as Record<string, unknown>).sort((a, b) => compareCodeUnits(a[0], b[0]))) {
      const pkg = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)["package"] : undefined;
      if (typeof pkg === "string") targetPackages.set(name, pkg);
      const label = typeof entry === "object" && entry !== null ? (entry as Record<string, unknown>)["label"] : undefined;
      if (label === undefined) continue;
      if (typeof label !== "string") throw wrong(`targets.${name}.label`, "a string");
      targetLabels.set(name, label);
    }
  }
  let report: Provenance["report"] = { ...LEGACY_REPORT };
  if (at("report") !== undefined) {
    report = { title: str("report.title"), slug: str("report.slug") };
    if (!SLUG.test(report.slug)) throw wrong("report.slug", "a slug (lower-case letters and digits joined by single hyphens)");
  }
  const clients = at("clients");
  let clientProtocols: Map<string, string> | undefined;
  const declaredClients = new Map<string, string>();
  if (clients !== undefined) {
    if (typeof clients !== "object" || clients === null || Array.isArray(clients)) throw wrong("clients", "an object of client name → { protocol }");
    clientProtocols = new Map();
    for (const name of Object.keys(clients).sort(compareCodeUnits)) {
      clientProtocols.set(name, str(`clients.${name}.protocol`));
      if (at(`clients.${name}.declared`) === true) declaredClients.set(name, at(`clients.${name}.label`) === undefined ? name : str(`clients.${name}.label`));
    }
  }
  const flows = new Map<string, { description?: string; steps: string }>();
  const flowsJson = at("flows");
  if (flowsJson !== undefined) {
    if (typeof flowsJson !== "object" || flowsJson === null || Array.isArray(flowsJson))
      throw wrong("flows", "an object of flow name → { description, steps }");
    for (const [name, entry] of Object.entries(flowsJson as Record<string, unknown>).sort((a, b) => compareCodeUnits(a[0], b[0]))) {
      const e = (typeof entry === "object" && entry !== null ? entry : {}) as Record<string, unknown>;
      if (typeof e.steps !== "string") throw wrong(`flows.${name}.steps`, "a string");
      if (e.description !== undefined && typeof e.description !== "string") throw wrong(`flows.${name}.description`, "a string");
      flows.set(name, { ...(e.description !== undefined ? { description: e.description as string } : {}), steps: e.steps });
    }
  }
  const tokenizersJson = at("tokenizers") ?? [];
  if (!Array.isArray(tokenizersJson) || !tokenizersJson.every((t): t is string => typeof t === "string")) throw wrong("tokenizers", "an array of strings");
  const view: Provenance = {
    schemaVersion: 1,
    tool: { name: str("tool.name"), version: str("tool.version") },
    git: { commit, dirty },
    matrix: { file: str("matrix.file"), sha256: str("matrix.sha256") },
    report,
    clientProtocols,
    declaredClients,
    packages,
    node: str("node"),
    os: { platform: str("os.platform"), release: str("os.release"), arch: str("os.arch") },
    cpu: { model: str("cpu.model"), cores },
    startedAt: str("startedAt"),
    endedAt: str("endedAt"),
    command,
    targetLabels,
    targetPackages,
    builds: readBuilds(at("builds"), file),
    flows,
    tokenizers: tokenizersJson,
  };
  return { record: json as ProvenanceRecord, view };
}
