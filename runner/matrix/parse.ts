/**
 * Read a matrix file: YAML with source positions (the `yaml` package), validated against
 * matrix.schema.json (Ajv), then checked for meaning (targets named by the target axis exist,
 * placeholders name axes, rules and sweeps name axes and their values, a client axis comes with
 * flow and revision axes). Every problem is a UserError `file:line:column: what — fix`, reporting
 * the first problem found.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { ErrorObject, ValidateFunction } from "ajv";
import { CLIENTS } from "../drivers/clients.js";
import { parseStep, type FlowDefinition, type FlowStep, type RawStep } from "./flows.js";
import { clientDeclaration, type SdkClientName } from "../drivers/declarations.js";
import { UserError } from "../../format/errors.js";
import { refuseNotPlainFile } from "../../format/files.js";
import { RESERVED_SLUGS } from "../../format/layout.js";
import { parseYaml, yamlValue } from "../../format/yaml.js";
import { buildRoot, repoRoot } from "../paths.js";
import { Locator, type YamlPath } from "./locate.js";
import { matrixSchemaValidator } from "./schema-validator.js";
import { placeholderNames, substituteKnown } from "./placeholders.js";
import { VERSION_AXIS, versionedName } from "./target-of.js";
import type {
  Axis,
  DeclaredClient,
  ExcludeRule,
  IncludeRule,
  Match,
  Matrix,
  Requirement,
  Sweep,
  Target,
  TargetBuild,
  TargetCommand,
  Toolchain,
} from "./types.js";

/** Axis names with a meaning to the runner; every other axis is passed through to targets. */
export const BUILTIN_AXES = ["target", "client", "transport", "revision", "flow", "pinning", "version"] as const;

/** Transports a target can declare a command for (values of the transport axis). */
export const TRANSPORTS = ["stdio", "http"] as const;

/** The transport value of a target declared `inProcess:` (a function called inside the runner; measures: [percall] only). */
export const IN_PROCESS = "in-process";

/** Measures that run on their own, never beside another measure in one matrix. */
const ALONE_MEASURES = ["percall"];

const DEFAULT_TIMEOUT_S = 30;

/** Title of a matrix that names none. */
export const DEFAULT_TITLE = "wirecost report";

/** What a report slug looks like: lower-case letters and digits in runs joined by single hyphens. */
export const SLUG_PATTERN = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/**
 * The slug a title gives when the matrix has no `slug:`: lower-cased, every run of characters other
 * than `a-z` and `0-9` replaced by one `-`, leading and trailing `-` dropped (e.g. "MCP on the wire"
 * → `mcp-on-the-wire`, "JSON-RPC echo on the wire" → `json-rpc-echo-on-the-wire`).
 * @returns the slug; "" when the title has no ASCII letter or digit
 */
export function slugOf(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

let validator: ValidateFunction | undefined;
function validate(data: unknown): ErrorObject[] {
  validator ??= matrixSchemaValidator(resolve(repoRoot, "matrix.schema.json"));
  if (validator(data)) return [];
  const errs = (validator.errors ?? []).filter((e) => e.keyword !== "if"); // an if/then failure is reported by the then-schema's own errors
  // An unknown key explains a "required" or type error nearby better than they do: report it first.
  return [...errs.filter((e) => e.keyword === "additionalProperties"), ...errs.filter((e) => e.keyword !== "additionalProperties")];
}

/** `axes[2].values[0]` from `/axes/2/values/0`. */
export function keyPath(path: YamlPath): string {
  let s = "";
  for (const p of path) s += typeof p === "number" ? `[${p}]` : /^[A-Za-z_$][\w$]*$/.test(p) ? (s ? `.${p}` : p) : `[${JSON.stringify(p)}]`;
  return s || "the top level";
}

/** A value as a message shows it: JSON, except numbers JSON cannot write (`1e400` and `.inf` read as Infinity). */
function shown(v: unknown): string {
  return typeof v === "number" && !Number.isFinite(v) ? String(v) : JSON.stringify(v);
}

function schemaMessage(e: ErrorObject, path: YamlPath): string {
  const at = keyPath(path);
  const desc = (e.parentSchema as { description?: string } | undefined)?.description;
  const hint = desc ? ` (${desc.replace(/\.$/, "")})` : "";
  switch (e.keyword) {
    case "additionalProperties":
      return `unknown key "${String(e.params.additionalProperty)}" in ${at} — remove it or fix its spelling; allowed keys: ${Object.keys((e.parentSchema as { properties?: object }).properties ?? {}).join(", ")}`;
    case "required":
      return `${at} lacks "${String(e.params.missingProperty)}" — add ${String(e.params.missingProperty)}: (see matrix.schema.json)`;
    case "type": {
      const t = String(e.params.type).replace(",", " or ");
      return `${at} must be ${t === "integer" ? "a whole number" : t}, got ${shown(e.data)} — change the value${hint}`;
    }
    case "minimum":
      return `${at} is ${shown(e.data)} but must be ≥ ${String(e.params.limit)} — ${e.params.limit === 0 ? "counts are whole numbers, 0 means zero" : `give a larger number${hint}`}`;
    case "maximum":
      return `${at} is ${shown(e.data)} but must be ≤ ${String(e.params.limit)} — give a smaller number${hint}`;
    case "enum":
      return `${at} is ${shown(e.data)} — use one of: ${(e.params.allowedValues as unknown[]).map(String).join(", ")}`;
    case "exclusiveMinimum":
      return `${at} is ${shown(e.data)} but must be > ${String(e.params.limit)} — give a positive number`;
    case "const":
      return `${at} is ${shown(e.data)} — write ${JSON.stringify(e.params.allowedValue)}${hint}`;
    case "minItems":
      return `${at} ${Array.isArray(e.data) && e.data.length > 0 ? `has ${e.data.length} item(s)` : "is empty"} — list at least ${String(e.params.limit)} item(s)${hint}`;
    case "pattern":
      if (path[path.length - 1] === "slug")
        return `${at} is ${shown(e.data)}, which is not a slug — use lower-case letters and digits joined by single hyphens, e.g. json-rpc-echo-on-the-wire`;
      if (at === "clients")
        return `client name ${shown(e.data)} does not match ${String(e.params.pattern)} — use lower-case letters, digits, - and _, starting with a letter`;
      return `${at} is ${shown(e.data)}, which does not match ${String(e.params.pattern)} — use lower-case letters, digits and _, starting with a letter`;
    case "not":
      if (at === "clients")
        return `client name ${shown(e.data)} is a built-in client (raw, sdk, sdk-v1, sdk-v2, jsonrpc) — give the declared client another name, and use that name on the client axis`;
      return `${at} ${e.message ?? "is invalid"} — fix it per matrix.schema.json${hint}`;
    default:
      return `${at} ${e.message ?? "is invalid"} — fix it per matrix.schema.json${hint}`;
  }
}

type RawMatch = Record<string, string | number | (string | number)[]>;
interface RawCommand {
  argv: string[];
  env?: Record<string, string>;
}
interface RawBuild {
  name?: string;
  command: string[];
  inputs: string[];
  toolchain?: Toolchain[];
  resolved?: { from: "pip" | "cargo" | "go" | "npm" | "maven"; path: string };
}
interface RawClient {
  label?: string;
  package?: string;
  version?: string;
  protocol?: "mcp" | "jsonrpc";
  revisions?: string[];
  /** Required in a bytes run (checked in build); a per-call run has no flow axis. */
  flows?: Record<string, string[]>;
  build?: RawBuild;
  stdio?: RawCommand;
  http?: RawCommand;
  profile?: { sampler?: "self" | "py-spy"; pySpy?: string; clientStages?: string };
}
interface RawMatrix {
  clients?: Record<string, RawClient>;
  flows?: Record<string, { description?: string; steps: RawStep[] }>;
  title?: string;
  slug?: string;
  measures?: string[];
  timing?: Record<string, unknown>;
  repeats?: number;
  warmup?: number;
  timeoutSeconds?: number;
  captureLimitMiB?: number;
  axes: { name: string; values: (string | number)[]; id?: string; default?: string | number }[];
  grid?: RawMatch;
  exclude?: { match: RawMatch; reason?: string }[];
  include?: { match: RawMatch; repeats?: number; warmup?: number }[];
  sweeps?: { name?: string; axis: string; values?: (string | number)[]; base?: RawMatch; repeats?: number; warmup?: number }[];
  targets: Record<
    string,
    {
      label?: string;
      package?: string;
      version?: string;
      revisions?: string[] | "auto";
      flows?: string[];
      sdkClient?: SdkClientName;
      tool?: { name: string; arguments?: Record<string, unknown> };
      resolved?: { from: "pip" | "cargo" | "go" | "npm"; path: string };
      forkserver?: { preload: string[] };
      requires?: (string | { command: string; when?: RawMatch })[];
      versions?: (string | { version: string; revisions?: string[]; flows?: string[] })[];
      build?: RawBuild;
      inProcess?: { workload: string };
      harness?: RawCommand & { transport: string | string[]; server?: string };
      profile?: { sampler?: "self" | "py-spy"; pySpy?: string; stages?: string; clientStages?: string; direct?: string };
      stdio?: RawCommand;
      http?: RawCommand;
    }
  >;
}

/**
 * Parse and validate a matrix file.
 * @param path matrix file (YAML)
 * @returns the matrix with defaults applied (repeats 1, warmup 0, timeout 30 s, id template "{}")
 * @throws UserError naming file:line:column, what is wrong and the fix; naming the file when it is not a plain file (a FIFO: format/files.ts refuseNotPlainFile)
 */
export function loadMatrix(path: string): Matrix {
  const file = resolve(path);
  refuseNotPlainFile(path); // a FIFO would keep the reader waiting forever
  let text: Buffer;
  try {
    text = readFileSync(file);
  } catch {
    throw new UserError(`${path}: cannot read the matrix file — check the path (default: matrix.yaml in the current folder)`);
  }
  return parseMatrix(text.toString("utf8"), path, createHash("sha256").update(text).digest("hex"));
}

/** Parse matrix text; `name` is used in messages and resolved for `Matrix.file`. @throws UserError as loadMatrix. */
export function parseMatrix(text: string, name: string, sha256 = createHash("sha256").update(text).digest("hex")): Matrix {
  const { doc, lines: lc } = parseYaml(text, name, { uniqueKeys: true });
  const first = doc.errors[0];
  if (first) {
    const pos = lc.linePos(first.pos[0]);
    throw new UserError(`${name}:${pos.line}:${pos.col}: invalid YAML: ${first.message.split("\n")[0]} — fix the syntax at that line`);
  }
  const loc = new Locator(name, doc, lc);
  const data = yamlValue(doc, lc, name);
  if (data === null || data === undefined)
    throw new UserError(`${name}:1:1: the matrix file is empty — write version: 1, axes: and targets: (see README "The matrix")`);
  const errs = validate(data);
  if (errs[0]) {
    const e = errs[0];
    const path: YamlPath = e.instancePath
      .split("/")
      .slice(1)
      .map((p) => p.replaceAll("~1", "/").replaceAll("~0", "~"))
      .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const at = e.keyword === "additionalProperties" ? loc.key(path, String(e.params.additionalProperty)) : loc.at(path);
    throw new UserError(`${at}: ${schemaMessage(e, path)}`);
  }
  return build(data as RawMatrix, loc, name, sha256);
}

/**
 * Read a target's `build:` section: paths resolved against the matrix folder, `{build}` in
 * `resolved.path` substituted with the build folder. For one version of a versioned target
 * (`version` given), `{version}` in the command, inputs and `resolved.path` is that version and the
 * folder is `<name>@<version>`.
 * @throws UserError at the offending item for a placeholder other than {build} (and {version} for a versioned target)
 */
function parseBuild(b: RawBuild, tname: string, matrixDir: string, loc: Locator, version?: string, section: "targets" | "clients" = "targets"): TargetBuild {
  const dir = resolve(buildRoot(), version === undefined ? (b.name ?? tname) : versionedName(b.name ?? tname, version));
  const atVersion: Record<string, string> = version === undefined ? {} : { version };
  b.command.forEach((a, i) => {
    for (const ph of placeholderNames(a))
      if (ph !== "build" && !(ph === "version" && version !== undefined))
        fail(
          loc,
          [section, tname, "build", "command", i],
          `placeholder {${ph}} in a build command — a build takes only {build} (the folder to build into)${version === undefined ? "" : " and {version}"}`,
        );
  });
  b.inputs.forEach((a, i) => {
    for (const ph of placeholderNames(a))
      if (!(ph === "version" && version !== undefined))
        fail(
          loc,
          [section, tname, "build", "inputs", i],
          `placeholder {${ph}} in a build input — inputs take only {version}, in a target that lists versions:`,
        );
  });
  const toolchain = (b.toolchain ?? []).map((tc) => ({
    command: tc.command,
    install: tc.install,
    ...(tc.probe ? { probe: tc.probe } : {}),
    ...(tc.version ? { version: tc.version } : {}),
  }));
  const resolved = b.resolved ? { from: b.resolved.from, path: resolve(matrixDir, substituteKnown(b.resolved.path, { build: dir, ...atVersion })) } : undefined;
  return {
    command: b.command.map((a) => substituteKnown(a, atVersion)),
    inputs: b.inputs.map((p) => resolve(matrixDir, substituteKnown(p, atVersion))),
    toolchain,
    ...(resolved ? { resolved } : {}),
    dir,
    cwd: matrixDir,
    at: loc.at([section, tname, "build"]),
  };
}

/** Argv items of a declared client that stand for several items: the tap wrapper (stdio) and the flow's arguments. */
export const CLIENT_SPLICES = ["stdio", "flowargs"] as const;

/**
 * Read the `flows:` section (runner/matrix/flows.ts): each flow's steps, the first `open` and no
 * other `open`, `end` only as the last step.
 * @throws UserError at the step at fault
 */
function parseFlows(raw: NonNullable<RawMatrix["flows"]>, loc: Locator): Record<string, FlowDefinition> {
  const out: Record<string, FlowDefinition> = {};
  for (const [name, f] of Object.entries(raw)) {
    const steps = f.steps.map((st, i) => parseStep(st, (message, key) => fail(loc, ["flows", name, "steps", i], `flow ${name}: ${message}`, key)));
    const opens = (st: FlowStep): number => (st.kind === "open" ? 1 : st.kind === "repeat" ? opens(st.step) : 0);
    if (steps[0]?.kind !== "open" || steps.reduce((n, st) => n + opens(st), 0) !== 1)
      fail(loc, ["flows", name, "steps"], `flow ${name} must open the session once, as its first step — start its steps with open and use it nowhere else`);
    const ends = (st: FlowStep): number => (st.kind === "end" ? 1 : st.kind === "repeat" ? ends(st.step) : 0);
    const endCount = steps.reduce((n, st) => n + ends(st), 0);
    if (endCount > 1 || (endCount === 1 && steps[steps.length - 1]?.kind !== "end"))
      fail(loc, ["flows", name, "steps"], `flow ${name}: end ends the session — use it once, as the last step`);
    out[name] = { ...(f.description !== undefined ? { description: f.description } : {}), steps };
  }
  return out;
}

/**
 * Check the placeholders of one text of a client's command: `{url}` (http) and `{stdio}` (stdio)
 * as argv items of their own, `{flowargs}`, `{build}` where the client has a build, axis names.
 * @throws UserError at `path` naming the placeholder and the fix
 */
function checkClientPlaceholders(text: string, path: YamlPath, isArgv: boolean, tr: string, name: string, axisNames: string[], loc: Locator): void {
  for (const ph of placeholderNames(text)) {
    if (ph === "url" && tr === "http") continue;
    if ((CLIENT_SPLICES as readonly string[]).includes(ph)) {
      if (ph === "stdio" && tr !== "stdio")
        fail(loc, path, `placeholder {stdio} in an http command — {stdio} (the target started through the tap) is for stdio commands; use {url} here`);
      if (!isArgv || text !== `{${ph}}`) fail(loc, path, `{${ph}} stands for several argv items — write it as an argv item of its own: "{${ph}}"`);
      continue;
    }
    if (ph === "url") fail(loc, path, `placeholder {url} in a stdio command — a stdio client starts the target itself: use {stdio}`);
    if (ph === "build")
      fail(loc, path, `placeholder {build} in client ${name}, which has no build: — add a build: section (command, inputs) or remove {build}`);
    if (!axisNames.includes(ph))
      fail(
        loc,
        path,
        `placeholder {${ph}} names no axis — use {url} (http), {stdio} (stdio), {flowargs} or one of: ${axisNames.map((n) => `{${n}}`).join(", ")}; for a literal brace (e.g. JSON in an argument) write {{ and }}`,
      );
  }
}

/**
 * One transport's command of a declared client, `{build}` substituted, its placeholders checked,
 * and the item that takes the server (`{stdio}`, `{url}`) required.
 * @throws UserError at the command's path
 */
function clientCommand(
  name: string,
  tr: "stdio" | "http",
  rc: NonNullable<RawClient["stdio"]>,
  atBuild: Record<string, string>,
  axisNames: string[],
  loc: Locator,
) {
  const argv = rc.argv.map((a) => substituteKnown(a, atBuild));
  const env = Object.fromEntries(Object.entries(rc.env ?? {}).map(([k, v]) => [k, substituteKnown(v, atBuild)]));
  argv.forEach((a, i) => checkClientPlaceholders(a, ["clients", name, tr, "argv", i], true, tr, name, axisNames, loc));
  for (const [k, v] of Object.entries(env)) checkClientPlaceholders(v, ["clients", name, tr, "env", k], false, tr, name, axisNames, loc);
  if (tr === "stdio" && !argv.includes("{stdio}"))
    fail(
      loc,
      ["clients", name, tr, "argv"],
      `client ${name}'s stdio command has no {stdio} item — add "{stdio}" where the client takes the server command (the target started through the tap)`,
    );
  if (tr === "http" && !argv.some((a) => a.includes("{url}")))
    fail(
      loc,
      ["clients", name, tr, "argv"],
      `client ${name}'s http command has no {url} — add "{url}" where the client takes the server's URL (the relay in front of the target)`,
    );
  return { argv, env };
}

/** A declared client's `profile:`, its paths resolved in the matrix's folder (py-spy requires its executable). @throws UserError at the profile */
function clientProfile(name: string, c: RawClient, resolvePath: (x: string) => string, loc: Locator): DeclaredClient["profile"] {
  if (c.profile?.sampler === "py-spy" && !c.profile.pySpy)
    fail(
      loc,
      ["clients", name, "profile"],
      `client ${name} samples with py-spy but names no pySpy executable — add pySpy: {build}/venv/bin/py-spy (a build that installs it)`,
    );
  return (
    c.profile && {
      ...(c.profile.sampler ? { sampler: c.profile.sampler } : {}),
      ...(c.profile.pySpy ? { pySpy: resolvePath(c.profile.pySpy) } : {}),
      ...(c.profile.clientStages ? { clientStages: resolvePath(c.profile.clientStages) } : {}),
    }
  );
}

/**
 * Read the `clients:` section (README "Measure your own client"): builds, commands with their
 * placeholders checked ({url} in http commands, {stdio} in stdio commands and {flowargs}, each a
 * whole argv item; {build} when the client has build:; axis names).
 * @throws UserError at the offending key: a client named like a target, a misplaced or unknown placeholder, no command
 */
function parseClients(
  raw: Record<string, RawClient>,
  targets: Record<string, unknown>,
  axisNames: string[],
  matrixDir: string,
  loc: Locator,
): Record<string, DeclaredClient> {
  const out: Record<string, DeclaredClient> = {};
  for (const [name, c] of Object.entries(raw)) {
    if (Object.hasOwn(targets, name))
      fail(loc, ["clients"], `client "${name}" has the name of a target — name clients and targets apart (their builds share .wirecost/build)`, name);
    const build = c.build ? parseBuild(c.build, name, matrixDir, loc, undefined, "clients") : undefined;
    const atBuild: Record<string, string> = build ? { build: build.dir } : {};
    const commands: DeclaredClient["commands"] = {};
    for (const tr of TRANSPORTS) {
      const rc = c[tr];
      if (rc) commands[tr] = clientCommand(name, tr, rc, atBuild, axisNames, loc);
    }
    if (!commands.stdio && !commands.http) fail(loc, ["clients", name], `client ${name} has no command — add stdio: or http: (argv: [...])`);
    const profile = clientProfile(name, c, (x) => resolve(matrixDir, substituteKnown(x, atBuild)), loc);
    out[name] = {
      name,
      label: c.label ?? name,
      ...(c.package !== undefined ? { package: c.package } : {}),
      ...(c.version !== undefined ? { version: c.version } : {}),
      protocol: c.protocol ?? "mcp",
      ...(c.revisions ? { revisions: c.revisions } : {}),
      flows: c.flows ?? {},
      ...(build ? { build } : {}),
      commands,
      ...(profile ? { profile } : {}),
    };
  }
  return out;
}

/** Fail at `path` (or at key `key` of the map at `path`). */
function fail(loc: Locator, path: YamlPath, msg: string, key?: string): never {
  throw new UserError(`${key === undefined ? loc.at(path) : loc.key(path, key)}: ${msg}`);
}

/** What the checks of a matrix's parts share once its axes and measures are read. */
interface MatrixContext {
  loc: Locator;
  axes: Axis[];
  byName: ReadonlyMap<string, Axis>;
  axisNames: string[];
  /** The axis names joined for a message. */
  axisList: string;
  measures: string[];
  /** Whether the matrix measures per call (in-process targets, harnesses and profiles allowed). */
  inProcessOk: boolean;
  /** Folder of the matrix file: relative paths resolve against it. */
  matrixDir: string;
}

/** The axes as declared, each checked: no name twice, no value twice, `{}` only in its id template, a default among its values. */
function parseAxes(raw: RawMatrix, loc: Locator): { axes: Axis[]; byName: Map<string, Axis> } {
  const axes: Axis[] = raw.axes.map((a) => ({
    name: a.name,
    values: a.values.map(String),
    id: a.id ?? "{}",
    ...(a.default !== undefined ? { default: String(a.default) } : {}),
  }));
  const byName = new Map<string, Axis>();
  axes.forEach((a, i) => {
    if (byName.has(a.name)) fail(loc, ["axes", i, "name"], `axis "${a.name}" is declared twice — merge the two declarations`);
    byName.set(a.name, a);
    const vs = new Set<string>();
    a.values.forEach((v, j) => {
      if (vs.has(v)) fail(loc, ["axes", i, "values", j], `value "${v}" repeats in axis "${a.name}" — remove the duplicate`);
      vs.add(v);
    });
    for (const m of a.id.matchAll(/\{([^}]*)\}/g)) {
      if (m[1] !== "")
        fail(
          loc,
          ["axes", i, "id"],
          `placeholder {${m[1]}} in the id template of axis "${a.name}" — id templates take only {} (the value), e.g. ${a.name[0]}{}`,
        );
    }
    if (a.default !== undefined && !vs.has(a.default))
      fail(loc, ["axes", i, "default"], `default "${a.default}" is not a value of axis "${a.name}" — use one of: ${a.values.join(", ")}`);
  });
  return { axes, byName };
}

/** A match object at `path` checked: keys name axes, values are values of them. */
function parseMatch(ctx: MatrixContext, m: RawMatch | undefined, path: YamlPath): Match {
  const out: Match = {};
  for (const [k, v] of Object.entries(m ?? {})) {
    const axis = ctx.byName.get(k);
    if (!axis) fail(ctx.loc, path, `unknown axis "${k}" in ${keyPath(path)} — use one of: ${ctx.axisList}`, k);
    const list = (Array.isArray(v) ? v : [v]).map(String);
    list.forEach((x, j) => {
      if (!axis.values.includes(x))
        fail(
          ctx.loc,
          Array.isArray(v) ? [...path, k, j] : [...path, k],
          `"${x}" is not a value of axis "${k}" — add it to the axis' values or use one of: ${axis.values.join(", ")}`,
        );
    });
    out[k] = list;
  }
  return out;
}

/** The client axis's values are known or declared clients, and it comes with the flow and revision axes its drivers need. */
function checkClientAxis(raw: RawMatrix, axes: Axis[], byName: ReadonlyMap<string, Axis>, loc: Locator): void {
  const clientAxis = axes.findIndex((a) => a.name === "client");
  if (clientAxis < 0) return;
  const declared = Object.keys(raw.clients ?? {});
  axes[clientAxis]!.values.forEach((v, j) => {
    if (!(CLIENTS as readonly string[]).includes(v) && !declared.includes(v))
      fail(loc, ["axes", clientAxis, "values", j], `unknown client "${v}" — use one of: ${[...CLIENTS, ...declared].join(", ")}, or declare it under clients:`);
  });
  const revisioned = axes[clientAxis]!.values.some(
    (c) => c === "sdk" || clientDeclaration(c)?.revisions !== undefined || raw.clients?.[c]?.revisions !== undefined,
  ); // a protocol without revisions needs no revision axis
  // A per-call matrix runs no flow: its calls are the timing block's (runner/percall/options.ts).
  const flowed = !(raw.measures ?? []).includes("percall");
  for (const axis of [...(flowed ? ["flow"] : []), ...(revisioned ? ["revision"] : [])]) {
    if (!byName.has(axis))
      fail(
        loc,
        ["axes", clientAxis, "name"],
        `a client axis needs a "${axis}" axis (a driver runs one flow in one revision per configuration) — add an axis named ${axis}`,
      );
  }
}

/** The target axis exists. */
function checkTargetAxis(raw: RawMatrix, axes: Axis[], loc: Locator): void {
  if (!axes.some((a) => a.name === "target"))
    fail(
      loc,
      ["axes"],
      `no "target" axis — add an axis named target whose values name entries of targets: (${Object.keys(raw.targets).join(", ") || "none defined"})`,
    );
}

/** The transport axis's values are transports (or in-process). */
function checkTransportAxis(axes: Axis[], loc: Locator): void {
  const transportAxis = axes.findIndex((a) => a.name === "transport");
  if (transportAxis < 0) return;
  axes[transportAxis]!.values.forEach((v, j) => {
    if (![...TRANSPORTS, IN_PROCESS].includes(v))
      fail(loc, ["axes", transportAxis, "values", j], `unknown transport "${v}" — use one of: ${[...TRANSPORTS, IN_PROCESS].join(", ")}`);
  });
}

/** `measures:` (default `[bytes]`): a measure that runs alone runs alone, and per call needs the transport and revision axes. */
function parseMeasures(raw: RawMatrix, byName: ReadonlyMap<string, Axis>, loc: Locator): string[] {
  const measures = raw.measures ?? ["bytes"];
  const alone = measures.findIndex((x) => ALONE_MEASURES.includes(x));
  if (alone >= 0 && measures.length > 1)
    fail(
      loc,
      ["measures", alone],
      `measure "${measures[alone]}" runs alone — write measures: [${measures[alone]}] and put the other measures in a matrix of their own`,
    );
  if (measures.includes("percall")) {
    for (const axis of ["transport", "revision"]) {
      if (!byName.has(axis))
        fail(loc, ["axes"], `measures: [percall] needs a "${axis}" axis (target × transport × revision names each path) — add an axis named ${axis}`);
    }
  }
  return measures;
}

/** The report's title and slug: a slug that is a file name and no page render writes itself. */
function titleAndSlug(raw: RawMatrix, loc: Locator): { title: string; slug: string } {
  const title = raw.title ?? DEFAULT_TITLE;
  const slug = raw.slug ?? slugOf(title);
  if (slug === "")
    fail(
      loc,
      ["title"],
      `title ${JSON.stringify(title)} gives no slug (it has no letter a-z or digit) — add slug: with the file name of the report's pages, e.g. slug: my-report`,
    );
  if (RESERVED_SLUGS.includes(slug))
    fail(
      loc,
      [raw.slug !== undefined ? "slug" : "title"],
      `slug ${JSON.stringify(slug)} names a page render writes itself (the site ${slug} page): this report's page would overwrite it — give the matrix another slug:, e.g. slug: ${slug}-report`,
    );
  return { title, slug };
}

type RawTarget = RawMatrix["targets"][string];

/** An exact release as registries write it: a digit (or `v` and a digit) first, then letters, digits, `.`, `+`, `-`, `_` (never a range, a path or a space). */
const EXACT_VERSION = /^v?[0-9][0-9A-Za-z.+_-]*$/;

/** Every target entry: each declared target, and for a target that lists `versions:` one entry per version beside the family's own. */
function parseTargets(raw: RawMatrix, ctx: MatrixContext): Record<string, Target> {
  const targets: Record<string, Target> = {};
  for (const [tname, t] of Object.entries(raw.targets)) {
    if (!t.versions) {
      targets[tname] = makeTarget(ctx, tname, t);
      continue;
    }
    const listed = versionedTargets(ctx, tname, t, targets);
    targets[tname] = {
      name: tname,
      label: t.label ?? tname,
      ...(t.package !== undefined ? { package: t.package } : {}),
      versions: listed,
      requires: [],
      commands: {},
    };
  }
  return targets;
}

/** A versioned target's entries, one per listed version, put into `targets`; its versions checked exact, on the version axis, each once. */
function versionedTargets(ctx: MatrixContext, tname: string, t: RawTarget, targets: Record<string, Target>): string[] {
  const { loc } = ctx;
  const versionAxis = ctx.byName.get(VERSION_AXIS);
  if (!versionAxis)
    fail(
      loc,
      ["targets", tname],
      `target ${tname} lists versions:, but the matrix has no "${VERSION_AXIS}" axis — add an axis named ${VERSION_AXIS} whose values are those versions`,
      "versions",
    );
  if (!t.build)
    fail(
      loc,
      ["targets", tname],
      `target ${tname} lists versions: but has no build: — each version is installed by the build into its own folder; add build: (command with {build} and {version}, inputs, resolved)`,
      "versions",
    );
  if (t.version !== undefined)
    fail(loc, ["targets", tname], `target ${tname} lists versions: and a version: — each listed version is checked exactly; remove version:`, "version");
  const listed: string[] = [];
  (t.versions ?? []).forEach((e, i) => {
    const v = typeof e === "string" ? e : e.version;
    const path: YamlPath = typeof e === "string" ? ["targets", tname, "versions", i] : ["targets", tname, "versions", i, "version"];
    if (!EXACT_VERSION.test(v) || /(^|\.)[xX*](\.|$)/.test(v))
      fail(
        loc,
        path,
        `version "${v}" of target ${tname} is not an exact version — list exact releases (1.13.0, v1.8.0, 2.2.0rc1), not ranges: each is installed into its own folder and checked exactly`,
      );
    if (!versionAxis.values.includes(v))
      fail(loc, path, `version "${v}" of target ${tname} is not a value of axis "${VERSION_AXIS}" — add it to the axis' values`);
    if (listed.includes(v)) fail(loc, path, `version "${v}" repeats in targets.${tname}.versions — remove the duplicate`);
    listed.push(v);
    const entry = makeTarget(ctx, tname, t, {
      version: v,
      ...(typeof e !== "string" && e.revisions ? { revisions: e.revisions } : {}),
      ...(typeof e !== "string" && e.flows ? { flows: e.flows } : {}),
    });
    targets[entry.name] = entry;
  });
  return listed;
}

/**
 * A target's keys that cannot go together, or need a measure, as a table of rules: when each
 * applies, what it says and where it points (`path` below `targets.<name>`, and the key of that
 * map the message names, when it names one). The first rule a target breaks is its error.
 */
const TARGET_RULES: ReadonlyArray<{
  path: readonly string[];
  key?: string;
  applies: (t: RawTarget, ctx: MatrixContext) => boolean;
  message: (tname: string, t: RawTarget) => string;
}> = [
  {
    path: [],
    key: "inProcess",
    applies: (t, ctx) => t.inProcess !== undefined && !ctx.inProcessOk,
    message: (n) => `target ${n} runs in-process, which only measures: [percall] measures — set measures: [percall] or remove inProcess`,
  },
  {
    path: [],
    key: "inProcess",
    applies: (t) => t.inProcess !== undefined && (t.stdio !== undefined || t.http !== undefined),
    message: (n, t) => `target ${n} declares inProcess and a ${t.stdio ? "stdio" : "http"} command — an in-process target starts no server; remove one of them`,
  },
  {
    path: [],
    key: "harness",
    applies: (t, ctx) => t.harness !== undefined && !ctx.inProcessOk,
    message: (n) => `target ${n} is a per-call harness, which only measures: [percall] runs — set measures: [percall] or remove harness`,
  },
  {
    path: [],
    key: "harness",
    applies: (t) => t.harness !== undefined && (t.stdio !== undefined || t.http !== undefined || t.inProcess !== undefined),
    message: (n, t) =>
      `target ${n} declares harness and ${t.inProcess ? "inProcess" : `a ${t.stdio ? "stdio" : "http"} command`} — a harness times its path itself; remove one of them`,
  },
  {
    path: ["resolved"],
    applies: (t) => t.resolved !== undefined && t.build !== undefined,
    message: (n) => `target ${n} declares resolved: and build: — a built target gives it as build.resolved; move it there`,
  },
  {
    path: ["profile"],
    key: "profile",
    applies: (t, ctx) => t.profile !== undefined && !ctx.inProcessOk && !ctx.measures.includes("cpu"),
    message: (n) => `target ${n} declares profile:, which only measures: [percall] and cpu runs use — add one of them to measures: or remove profile`,
  },
  {
    path: ["profile"],
    key: "profile",
    applies: (t) => t.profile?.sampler === "py-spy" && !t.profile.pySpy,
    message: (n) => `target ${n} samples with py-spy but names no pySpy executable — add pySpy: {build}/venv/bin/py-spy (a build that installs it)`,
  },
];

/** Fail with the first {@link TARGET_RULES} rule target `tname` breaks. */
function checkTargetRules(ctx: MatrixContext, tname: string, t: RawTarget): void {
  const rule = TARGET_RULES.find((r) => r.applies(t, ctx));
  if (rule) fail(ctx.loc, ["targets", tname, ...rule.path], rule.message(tname, t), rule.key);
}

/**
 * A command of a target (`key`: stdio, http or harness) with {build} and {version} substituted
 * and its placeholders checked: {port} in http commands only (and there required), every other
 * placeholder an axis.
 */
function targetCommand(ctx: MatrixContext, tname: string, atBuild: Record<string, string>, c: RawCommand, key: "stdio" | "http" | "harness"): TargetCommand {
  const { loc, axisNames } = ctx;
  const cmd: TargetCommand = {
    argv: c.argv.map((a) => substituteKnown(a, atBuild)),
    env: Object.fromEntries(Object.entries(c.env ?? {}).map(([k, v]) => [k, substituteKnown(v, atBuild)])),
  };
  const texts: [string, YamlPath][] = [
    ...cmd.argv.map((s, i): [string, YamlPath] => [s, ["targets", tname, key, "argv", i]]),
    ...Object.entries(cmd.env).map(([k, s]): [string, YamlPath] => [s, ["targets", tname, key, "env", k]]),
  ];
  for (const [s, path] of texts) {
    for (const ph of placeholderNames(s)) {
      if (ph === "port" && key === "http") continue;
      if (ph === "build")
        fail(loc, path, `placeholder {build} in target ${tname}, which has no build: — add a build: section (command, inputs) or remove {build}`);
      if (ph === "port")
        fail(
          loc,
          path,
          key === "harness"
            ? `placeholder {port} in a harness command — a harness starts what it measures itself; remove it`
            : `placeholder {port} in a stdio command — only http commands get a port; remove it`,
        );
      if (!axisNames.includes(ph))
        fail(
          loc,
          path,
          `placeholder {${ph}} names no axis — use {port} (http) or one of: ${axisNames.map((n) => `{${n}}`).join(", ")}; for a literal brace (e.g. JSON in an argument) write {{ and }}`,
        );
    }
  }
  if (key === "http" && !texts.some(([s]) => placeholderNames(s).includes("port")))
    fail(
      loc,
      ["targets", tname, key, "argv"],
      `http command of target ${tname} has no {port} — each run's server listens on a free port the runner gives it through {port}; add it where the server takes its port (e.g. --port, "{port}", or env: { PORT: "{port}" })`,
    );
  return cmd;
}

/** A target's `profile:` with its paths resolved against the matrix folder ({build} substituted). */
function targetProfile(ctx: MatrixContext, t: RawTarget, atBuild: Record<string, string>): Target["profile"] {
  if (!t.profile) return undefined;
  const inMatrixDir = (x: string): string => resolve(ctx.matrixDir, substituteKnown(x, atBuild));
  return {
    ...(t.profile.sampler ? { sampler: t.profile.sampler } : {}),
    ...(t.profile.pySpy ? { pySpy: inMatrixDir(t.profile.pySpy) } : {}),
    ...(t.profile.stages ? { stages: inMatrixDir(t.profile.stages) } : {}),
    ...(t.profile.clientStages ? { clientStages: inMatrixDir(t.profile.clientStages) } : {}),
    ...(t.profile.direct ? { direct: t.profile.direct } : {}),
  };
}

/**
 * One target entry: the target as declared, or (`ver` given) one version of a versioned target,
 * named `<tname>@<version>`, with `{version}` substituted in its build and commands, `version` the
 * exact version, and the version's own revisions and flows where it lists them.
 */
function makeTarget(ctx: MatrixContext, tname: string, t: RawTarget, ver?: { version: string; revisions?: string[]; flows?: string[] }): Target {
  const build = t.build ? parseBuild(t.build, tname, ctx.matrixDir, ctx.loc, ver?.version) : undefined;
  const atBuild: Record<string, string> = { ...(build ? { build: build.dir } : {}), ...(ver ? { version: ver.version } : {}) };
  const commands: Target["commands"] = {};
  for (const tr of TRANSPORTS) {
    const c = t[tr];
    if (c) commands[tr] = targetCommand(ctx, tname, atBuild, c, tr);
  }
  const harness = t.harness
    ? {
        transports: typeof t.harness.transport === "string" ? [t.harness.transport] : t.harness.transport,
        command: targetCommand(ctx, tname, atBuild, { argv: t.harness.argv, ...(t.harness.env ? { env: t.harness.env } : {}) }, "harness"),
        ...(t.harness.server !== undefined ? { server: t.harness.server } : {}),
      }
    : undefined;
  const requires: Requirement[] = (t.requires ?? []).map((r, i) => {
    const path: YamlPath = ["targets", tname, "requires", i];
    if (typeof r === "string") return { command: r, at: ctx.loc.at(path) };
    return { command: r.command, at: ctx.loc.at(path), ...(r.when ? { when: parseMatch(ctx, r.when, [...path, "when"]) } : {}) };
  });
  checkTargetRules(ctx, tname, t);
  const profile = targetProfile(ctx, t, atBuild);
  const revisions = ver?.revisions ?? (t.revisions === "auto" ? undefined : t.revisions);
  const flows = ver?.flows ?? t.flows;
  const version = ver?.version ?? t.version;
  return {
    name: ver ? versionedName(tname, ver.version) : tname,
    label: ver ? `${t.label ?? tname} ${ver.version}` : (t.label ?? tname),
    ...(t.package !== undefined ? { package: t.package } : {}),
    ...(version !== undefined ? { version } : {}),
    ...(revisions ? { revisions } : {}),
    ...(t.revisions === "auto" && !ver ? { revisionsAuto: true as const } : {}),
    ...(flows ? { flows } : {}),
    ...(ver ? { family: tname } : {}),
    ...(t.sdkClient !== undefined ? { sdkClient: t.sdkClient } : {}),
    ...(t.tool ? { tool: { name: t.tool.name, arguments: structuredClone(t.tool.arguments ?? {}) } } : {}),
    ...(t.resolved ? { resolved: { from: t.resolved.from, path: resolve(ctx.matrixDir, t.resolved.path) } } : {}),
    ...(t.forkserver ? { forkserver: { preload: [...t.forkserver.preload] } } : {}),
    ...(t.inProcess ? { inProcess: { workload: t.inProcess.workload } } : {}),
    ...(harness ? { harness } : {}),
    ...(profile ? { profile } : {}),
    ...(build ? { build } : {}),
    requires,
    commands,
  };
}

/** Every value of the target axis names a target; declared clients fit the measures; a harness's server is a target. */
function checkTargetReferences(raw: RawMatrix, ctx: MatrixContext, targets: Record<string, Target>): void {
  const { loc, measures } = ctx;
  const targetAxis = ctx.axes.findIndex((a) => a.name === "target");
  ctx.axes[targetAxis]!.values.forEach((v, j) => {
    if (!targets[v])
      fail(
        loc,
        ["axes", targetAxis, "values", j],
        `unknown target "${v}" — define it under targets: or use one of: ${Object.keys(targets).join(", ") || "(none defined)"}`,
      );
  });
  if (raw.clients && measures.some((x) => x !== "bytes" && x !== "percall"))
    fail(
      loc,
      ["clients"],
      `clients: declares clients run as commands, which bytes and per-call runs use (measures: [${measures.join(", ")}] times wirecost's own client) — remove clients: or put them in a bytes or per-call matrix`,
    );
  for (const [name, c] of Object.entries(raw.clients ?? {}))
    if (c.flows === undefined && !measures.includes("percall"))
      fail(
        loc,
        ["clients", name],
        `client ${name} declares no flows: — add flows: (flow name: the arguments that make it run that flow), e.g. flows: { plain: [] }`,
      );
  for (const [tname, t] of Object.entries(raw.targets))
    if (t.harness?.server !== undefined && !Object.hasOwn(targets, t.harness.server))
      fail(
        loc,
        ["targets", tname, "harness", "server"],
        `unknown target "${t.harness.server}" — name the target whose server this harness starts, one of: ${Object.keys(targets).join(", ")}`,
      );
}

/** The include and exclude rules, each with its place in the file for messages. */
function parseRules(raw: RawMatrix, ctx: MatrixContext): { exclude: ExcludeRule[]; include: IncludeRule[] } {
  const exclude: ExcludeRule[] = (raw.exclude ?? []).map((r, i) => ({
    match: parseMatch(ctx, r.match, ["exclude", i, "match"]),
    ...(r.reason !== undefined ? { reason: r.reason } : {}),
    label: `exclude[${i}] (${ctx.loc.at(["exclude", i])})`,
  }));
  const include: IncludeRule[] = (raw.include ?? []).map((r, i) => ({
    match: parseMatch(ctx, r.match, ["include", i, "match"]),
    ...(r.repeats !== undefined ? { repeats: r.repeats } : {}),
    ...(r.warmup !== undefined ? { warmup: r.warmup } : {}),
    label: `include[${i}] (${ctx.loc.at(["include", i])})`,
  }));
  return { exclude, include };
}

/** One sweep: its axis and values checked, and a base value for every other axis (given, the axis's default, or its only value). */
function parseSweep(ctx: MatrixContext, s: NonNullable<RawMatrix["sweeps"]>[number], i: number): Sweep {
  const { loc } = ctx;
  const path: YamlPath = ["sweeps", i];
  const label = s.name ?? `sweeps[${i}]`;
  const axis = ctx.byName.get(s.axis);
  if (!axis) fail(loc, [...path, "axis"], `sweep ${label} varies unknown axis "${s.axis}" — use one of: ${ctx.axisList}`);
  const values = (s.values ?? axis.values).map(String);
  values.forEach((v, j) => {
    if (!axis.values.includes(v))
      fail(loc, [...path, "values", j], `"${v}" is not a value of axis "${axis.name}" — add it to the axis' values or use one of: ${axis.values.join(", ")}`);
  });
  const given = parseMatch(ctx, s.base, [...path, "base"]);
  if (given[axis.name])
    fail(loc, [...path, "base"], `sweep ${label}'s base names the swept axis "${axis.name}" — remove it from base (the sweep gives its values)`, axis.name);
  const base: Match = {};
  for (const a of ctx.axes) {
    if (a === axis) continue;
    const v = given[a.name] ?? (a.default !== undefined ? [a.default] : a.values.length === 1 ? a.values : undefined);
    if (!v)
      fail(
        loc,
        s.base ? [...path, "base"] : path,
        `sweep ${label}'s base gives no value for axis "${a.name}", which has no default — add ${a.name}: <one of ${a.values.join(", ")}> to base, or default: to the axis`,
      );
    base[a.name] = v;
  }
  return {
    name: label,
    axis: axis.name,
    values,
    base,
    ...(s.repeats !== undefined ? { repeats: s.repeats } : {}),
    ...(s.warmup !== undefined ? { warmup: s.warmup } : {}),
  };
}

/** A schema-valid matrix checked for meaning, part by part, into a {@link Matrix}. @throws UserError at the first problem */
function build(raw: RawMatrix, loc: Locator, name: string, sha256: string): Matrix {
  const { axes, byName } = parseAxes(raw, loc);
  const axisNames = axes.map((a) => a.name);
  checkTargetAxis(raw, axes, loc);
  checkClientAxis(raw, axes, byName, loc);
  checkTransportAxis(axes, loc);
  const measures = parseMeasures(raw, byName, loc);
  const { title, slug } = titleAndSlug(raw, loc);
  const matrixDir = dirname(resolve(name));
  const ctx: MatrixContext = { loc, axes, byName, axisNames, axisList: axisNames.join(", "), measures, inProcessOk: measures.includes("percall"), matrixDir };
  const targets = parseTargets(raw, ctx);
  checkTargetReferences(raw, ctx, targets);
  const clients = raw.clients ? parseClients(raw.clients, targets, axisNames, matrixDir, loc) : undefined;
  const flows = raw.flows ? parseFlows(raw.flows, loc) : undefined;
  const grid = raw.grid ? parseMatch(ctx, raw.grid, ["grid"]) : undefined;
  const { exclude, include } = parseRules(raw, ctx);
  const sweeps = (raw.sweeps ?? []).map((s, i) => parseSweep(ctx, s, i));
  return {
    file: resolve(name),
    sha256,
    definitionSha256: createHash("sha256").update(JSON.stringify(raw)).digest("hex"),
    title,
    slug,
    repeats: raw.repeats ?? 1,
    warmup: raw.warmup ?? 0,
    timeoutMs: (raw.timeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000,
    ...(raw.captureLimitMiB !== undefined ? { captureLimitBytes: raw.captureLimitMiB * 1024 * 1024 } : {}),
    measures,
    ...(raw.timing ? { timing: raw.timing } : {}),
    axes,
    targets,
    ...(clients ? { clients } : {}),
    ...(flows ? { flows } : {}),
    ...(grid ? { grid } : {}),
    exclude,
    include,
    sweeps,
    locate: (...p) => loc.at(p),
  };
}
