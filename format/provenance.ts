/**
 * Read and check `provenance.json`: where and with what the results were produced. The one check
 * of that file kind, for every reader (render, compare, merge, recount).
 */
import { UserError, readResultsFile } from "./errors.js";
import type { Provenance as ProvenanceRecord } from "./schema.js";
import { compareCodeUnits } from "./order.js";
import { readBuilds, type TargetBuildInfo } from "./builds.js";
import { migrateProvenance } from "./migrations.js";

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
   * matrix's `title:` and `slug:`); format/migrations.ts `LEGACY_REPORT` in a file written before it.
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

/** Reading one parsed provenance.json: a value by dotted key, a string that must be there, and the error of a wrong value. */
interface JsonKeys {
  at: (path: string) => unknown;
  str: (key: string) => string;
  wrong: (key: string, want: string) => UserError;
}

function jsonKeys(json: unknown, file: string): JsonKeys {
  const at = (path: string): unknown => {
    let v: unknown = json;
    for (const part of path.split(".")) v = typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>)[part] : undefined;
    return v;
  };
  const wrong = (key: string, want: string): UserError => new UserError({ file, key, problem: `expected \`${key}\` to be ${want}`, fix: FIX });
  const str = (key: string): string => {
    const v = at(key);
    if (typeof v !== "string") throw wrong(key, "a string");
    return v;
  };
  return { at, str, wrong };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** `packages`: name → version, sorted by name. */
function packagesOf(j: JsonKeys): Provenance["packages"] {
  const pkgs = j.at("packages");
  if (!isObject(pkgs)) throw j.wrong("packages", "an object of package name → version");
  const packages = Object.entries(pkgs).map(([name, v]) => {
    if (typeof v !== "string") throw j.wrong(`packages.${name}`, "a version string");
    return { name, version: v };
  });
  return packages.sort((a, b) => compareCodeUnits(a.name, b.name));
}

/** `command`: a string, or an array of strings joined by spaces. */
function commandOf(j: JsonKeys): string {
  const cmd = j.at("command");
  if (typeof cmd === "string") return cmd;
  if (Array.isArray(cmd) && cmd.every((a): a is string => typeof a === "string")) return cmd.join(" ");
  throw j.wrong("command", "a string or an array of strings");
}

/** `targets` (optional): each target's label and package, by name. */
function targetsOf(j: JsonKeys): { targetLabels: Map<string, string>; targetPackages: Map<string, string> } {
  const targets = j.at("targets");
  const targetLabels = new Map<string, string>();
  const targetPackages = new Map<string, string>();
  if (targets === undefined) return { targetLabels, targetPackages };
  if (!isObject(targets)) throw j.wrong("targets", "an object of target name → { label }");
  for (const [name, entry] of Object.entries(targets).sort((a, b) => compareCodeUnits(a[0], b[0]))) {
    const pkg = isObject(entry) ? entry["package"] : undefined;
    if (typeof pkg === "string") targetPackages.set(name, pkg);
    const label = isObject(entry) ? entry["label"] : undefined;
    if (label === undefined) continue;
    if (typeof label !== "string") throw j.wrong(`targets.${name}.label`, "a string");
    targetLabels.set(name, label);
  }
  return { targetLabels, targetPackages };
}

/** `report`: title and slug (format/migrations.ts gives a file written before it the legacy report). */
function reportOf(j: JsonKeys): Provenance["report"] {
  const report = { title: j.str("report.title"), slug: j.str("report.slug") };
  if (!SLUG.test(report.slug)) throw j.wrong("report.slug", "a slug (lower-case letters and digits joined by single hyphens)");
  return report;
}

/** `clients`: each client's protocol, and the declared ones' labels; absent only in a file written before it (format/migrations.ts). */
function clientsOf(j: JsonKeys): { clientProtocols: Map<string, string> | undefined; declaredClients: Map<string, string> } {
  const clients = j.at("clients");
  const declaredClients = new Map<string, string>();
  if (clients === undefined) return { clientProtocols: undefined, declaredClients };
  if (!isObject(clients)) throw j.wrong("clients", "an object of client name → { protocol }");
  const clientProtocols = new Map<string, string>();
  for (const name of Object.keys(clients).sort(compareCodeUnits)) {
    clientProtocols.set(name, j.str(`clients.${name}.protocol`));
    if (j.at(`clients.${name}.declared`) === true)
      declaredClients.set(name, j.at(`clients.${name}.label`) === undefined ? name : j.str(`clients.${name}.label`));
  }
  return { clientProtocols, declaredClients };
}

/** `flows`: each flow's steps in words and its declared description; absent only in a file written before it (format/migrations.ts). */
function flowsOf(j: JsonKeys): Provenance["flows"] {
  const flows = new Map<string, { description?: string; steps: string }>();
  const flowsJson = j.at("flows");
  if (flowsJson === undefined) return flows;
  if (!isObject(flowsJson)) throw j.wrong("flows", "an object of flow name → { description, steps }");
  for (const [name, entry] of Object.entries(flowsJson).sort((a, b) => compareCodeUnits(a[0], b[0]))) {
    const e = isObject(entry) ? entry : {};
    if (typeof e.steps !== "string") throw j.wrong(`flows.${name}.steps`, "a string");
    if (e.description !== undefined && typeof e.description !== "string") throw j.wrong(`flows.${name}.description`, "a string");
    flows.set(name, { ...(e.description !== undefined ? { description: e.description as string } : {}), steps: e.steps });
  }
  return flows;
}

/**
 * Read and check `provenance.json` as {@link readProvenance} does, for a reader that also needs
 * the record as written (merge and recount write it back). Keys are checked in one order, so the
 * first wrong one is the one named.
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
  const version = jsonKeys(json, file).at("schemaVersion");
  if (version !== 1) {
    throw new UserError({
      file,
      key: "schemaVersion",
      problem: `unsupported schemaVersion ${JSON.stringify(version)} (this wirecost reads 1)`,
      fix: "use the wirecost version that wrote these results, or regenerate them with `npx wirecost run`",
    });
  }
  const j = jsonKeys(migrateProvenance(file, json as Record<string, unknown>).record, file);
  const commit = j.at("git.commit");
  if (commit !== null && typeof commit !== "string") throw j.wrong("git.commit", "a string or null");
  const dirty = j.at("git.dirty");
  if (typeof dirty !== "boolean") throw j.wrong("git.dirty", "true or false");
  const cores = j.at("cpu.cores");
  if (typeof cores !== "number" || !Number.isSafeInteger(cores)) throw j.wrong("cpu.cores", "an integer");
  const packages = packagesOf(j);
  const command = commandOf(j);
  const { targetLabels, targetPackages } = targetsOf(j);
  const report = reportOf(j);
  const { clientProtocols, declaredClients } = clientsOf(j);
  const flows = flowsOf(j);
  const tokenizers = j.at("tokenizers");
  if (!Array.isArray(tokenizers) || !tokenizers.every((t): t is string => typeof t === "string")) throw j.wrong("tokenizers", "an array of strings");
  const view: Provenance = {
    schemaVersion: 1,
    tool: { name: j.str("tool.name"), version: j.str("tool.version") },
    git: { commit, dirty },
    matrix: { file: j.str("matrix.file"), sha256: j.str("matrix.sha256") },
    report,
    clientProtocols,
    declaredClients,
    packages,
    node: j.str("node"),
    os: { platform: j.str("os.platform"), release: j.str("os.release"), arch: j.str("os.arch") },
    cpu: { model: j.str("cpu.model"), cores },
    startedAt: j.str("startedAt"),
    endedAt: j.str("endedAt"),
    command,
    targetLabels,
    targetPackages,
    builds: readBuilds(j.at("builds"), file),
    flows,
    tokenizers,
  };
  return { record: json as ProvenanceRecord, view };
}
