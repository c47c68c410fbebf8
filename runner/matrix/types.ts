/** Types of a parsed matrix (see matrix.schema.json for the file format, README "The matrix"). */
import type { SdkClientName } from "../drivers/declarations.js";
import type { FlowDefinition } from "./flows.js";

/**
 * The most repeats (and warm-up runs) of one configuration: matrix.schema.json's `count`
 * maximum, and the bound of `wirecost run --repeats` and `verify --repeats` (kept in step: a test
 * reads the schema). Bounded so that a typo (`repeats: 1e400`, read as Infinity) cannot plan
 * unbounded runs.
 */
export const MAX_REPEATS = 10_000;

/** One axis: its name, values in declared order, id template and optional default. */
export interface Axis {
  name: string;
  /** Values as strings (whole numbers in the file are written in decimal). */
  values: string[];
  /** Id template, e.g. `s{}` → `s2048`; "" leaves the axis out of configuration ids. */
  id: string;
  /** Declared default value; cells with it leave this axis out of their id. */
  default?: string;
}

/** How to start a target for one transport; `{port}` and `{axis}` placeholders are substituted. */
export interface TargetCommand {
  argv: string[];
  env: Record<string, string>;
}

/** Axis name → allowed values; a cell matches when every named axis has one of them. */
export type Match = Record<string, string[]>;

/** A preflight requirement: `command` must be on PATH for configurations matching `when` (all when undefined). */
export interface Requirement {
  command: string;
  when?: Match;
  /** Source position `file:line:col` of the requirement. */
  at: string;
}

/**
 * A tool a target's build needs (README "Targets in any language"): `command` must be on PATH;
 * `probe`, when given, must exit 0 (e.g. `python3 -m venv --help`); `version` prints the version
 * recorded in provenance (its first output line).
 */
export interface Toolchain {
  command: string;
  probe?: string[];
  version?: string[];
  /** What to install when it is missing, e.g. "Go 1.26 or later". */
  install: string;
}

/**
 * How a built target's resolved dependency set is read after its build: `pip` (the distributions
 * installed for `path`, a Python executable), `cargo` (`path`, a Cargo.lock), `go` (`go version -m`
 * of `path`, a Go binary), `npm` (`path`, a package-lock.json: the packages npm installed). Paths are absolute after parsing (`{build}` substituted).
 */
export interface ResolvedSource {
  from: "pip" | "cargo" | "go" | "npm" | "maven";
  path: string;
}

/**
 * How a target is built before it runs (`build:` in the matrix): `command` runs from the matrix
 * folder with `{build}` = a fresh temporary folder, renamed to `dir` on exit 0; the sha256 of
 * `command`, the toolchain versions and every file of `inputs` keys the cache.
 */
export interface TargetBuild {
  command: string[];
  /** Files or folders (absolute) whose contents key the cache. */
  inputs: string[];
  toolchain: Toolchain[];
  resolved?: ResolvedSource;
  /** Absolute build folder: `<wirecost root>/.wirecost/build/<name>` (`build.name`, default the target's name); `{build}` in the target's commands. */
  dir: string;
  /** The folder the command runs from (the matrix file's folder). */
  cwd: string;
  /** Source position `file:line:col` of `build:`. */
  at: string;
}

/** What a build needs of a target or a declared client (runner/build): its name and its `build:`. */
export type Buildable = { name: string; build?: TargetBuild };

/** A server under test. */
export interface Target {
  name: string;
  label: string;
  /**
   * Package checked against `version` and recorded in provenance: an npm package in node_modules,
   * or, for a built target, a member of its resolved set (PyPI, crates.io or Go module).
   */
  package?: string;
  /** Range the resolved `package` must satisfy: semver (npm, crates), PEP 440 (PyPI), Go versions (`v1.8.0`, semver rules). */
  version?: string;
  /** Set when the target is built before it runs. */
  build?: TargetBuild;
  /** Revisions it speaks; undefined = all. */
  revisions?: string[];
  /**
   * `revisions: auto`: the revisions it speaks are found by asking it before a bytes run
   * (runner/execute/probe-revisions.ts), which sets `revisions`; until then it is taken to speak all.
   */
  revisionsAuto?: true;
  /**
   * Set by `revisions: auto` for each revision it found the target does not speak on any
   * transport: the probe's lines (`stdio: server answered 2025-era … to a 2026-07-28 request`),
   * which expansion gives as the excluded cells' reason.
   */
  revisionsSkipped?: Record<string, string>;
  /**
   * Package versions it is run at (`versions:`, values of the `version` axis), on the family entry
   * only; each version has its own entry `<name>@<version>` (runner/matrix/target-of.ts) with its
   * own build folder, `version` set to that exact version and its own revisions and flows.
   */
  versions?: string[];
  /** On a version's entry: the family's name (the `target` axis value). */
  family?: string;
  /** Flows it serves; undefined = all. */
  flows?: string[];
  /**
   * For a target without `build:` (`resolved:`): where its resolved dependency set is read (path
   * absolute), so `package`/`version` is checked and recorded as for a built target.
   */
  resolved?: ResolvedSource;
  /**
   * The tool the flows' `tools/call` steps call on this target (`tool:`): its name and JSON
   * arguments; undefined = wirecost's own `echo` with `{"text": …}` (runner/drivers/mcp/flows.ts).
   */
  tool?: ToolCall;
  /**
   * The MCP TypeScript SDK client generation that client `sdk` drives it with (`sdkClient:`);
   * undefined = none, and expansion refuses a client `sdk` configuration of the target.
   */
  sdkClient?: SdkClientName;
  /**
   * Python targets, bytes runs only (`forkserver:`): each run's server is forked from one process
   * per target that imported `preload` once (runner/targets/forkserver.ts,
   * targets/common/forkserver.py); timing and per-call runs start the command as declared.
   */
  forkserver?: { preload: string[] };
  /** Set when the target is a workload function called inside the runner (transport `in-process`, measures: [percall] only). */
  inProcess?: { workload: string };
  /**
   * Set when the target is a per-call harness (measures: [percall] only, README "Per-call
   * harnesses in other languages"): a command that times one of its `transports` itself (the
   * configuration's, given as WIRECOST_TRANSPORT) and prints its samples; `{build}` is already
   * substituted in `command`. `server`: the target whose server the harness starts as its own
   * child (its rows sit on that target's line of the page's client × server grid); absent for an
   * in-process harness.
   */
  harness?: { transports: string[]; command: TargetCommand; server?: string };
  /**
   * How a per-call path of this target is profiled for its stage table (`profile:`, measures:
   * [percall] only; README "How to read a stage table"): the server's sampler (`self`: the signal
   * window of the profile-window contract; `py-spy`: attached by pid, `pySpy` the executable), the
   * server's and the client's stage-rules files, and the target whose median is the direct call
   * in check (b). Paths are absolute ({build} substituted). Undefined: the server is not attributed.
   */
  profile?: { sampler?: "self" | "py-spy"; pySpy?: string; stages?: string; clientStages?: string; direct?: string };
  /** Commands that must be on PATH (checked by preflight). */
  requires: Requirement[];
  commands: Partial<Record<"stdio" | "http", TargetCommand>>;
}

/**
 * A client declared in the matrix (`clients:`, README "Measure your own client"): a command the
 * runner starts for each run, which talks to the target through the relay (HTTP: `{url}`) or
 * starts it through the stdio tap (`{stdio}`: the `wirecost capture --log … -- TARGET ARGV`
 * wrapper, spliced in as several argv items). Its exit status, stdout and stderr are kept with
 * the run.
 */
export interface DeclaredClient {
  name: string;
  /** Name shown on pages. */
  label: string;
  /** npm package checked against `version` in the build's resolved set and recorded in provenance. */
  package?: string;
  version?: string;
  /** The protocol it speaks (provenance `clients`); MCP unless declared. */
  protocol: "mcp" | "jsonrpc";
  /** Revisions it speaks; undefined: it ignores the revision axis (it offers what it offers). */
  revisions?: string[];
  /** Flow name → argv items spliced in at `{flowargs}` (appended when the command has none). */
  flows: Record<string, string[]>;
  /** Set when the client is built before it runs (as targets are). */
  build?: TargetBuild;
  /** Commands per transport: argv items may hold `{url}` (http), `{stdio}` (stdio, a whole item), `{flowargs}` (a whole item), `{build}` and axis placeholders. */
  commands: Partial<Record<"stdio" | "http", TargetCommand>>;
  /**
   * measures: [percall] only: how the client's process is profiled when it drives another server
   * (README "How to read a stage table"): its sampler (`self`: the profile-window contract, with
   * WIRECOST_PROFILE_OUT; `py-spy`: attached by pid, `pySpy` the executable) and its stage rules
   * (`clientStages`, process client); paths resolved against the matrix's folder. Undefined: its
   * cells are timed only.
   */
  profile?: { sampler?: "self" | "py-spy"; pySpy?: string; clientStages?: string };
}

/** An exclude rule (`reason` shown by expand --all). */
export interface ExcludeRule {
  match: Match;
  reason?: string;
  /** Label `exclude[i]` plus source position, for reasons. */
  label: string;
}

/** An include rule: adds the cells with its listed values (other axes: their grid values); its counts win. */
export interface IncludeRule {
  match: Match;
  repeats?: number;
  warmup?: number;
  label: string;
}

/** A sweep: vary `axis` over `values` around each base cell. */
export interface Sweep {
  name: string;
  axis: string;
  values: string[];
  /** Axis → base values (every axis present; a list gives one base per value). */
  base: Match;
  repeats?: number;
  warmup?: number;
}

/** A validated matrix file. */
export interface Matrix {
  /** Absolute path of the file it came from. */
  file: string;
  /** sha256 hex of the file's bytes. */
  sha256: string;
  /**
   * sha256 hex of what the file says (its YAML data as JSON): unchanged by comments, blank lines
   * and quoting, so `--resume` accepts a matrix edited only in form.
   */
  definitionSha256?: string;
  /** Human title of the report (`title:`; default "wirecost report"), recorded in provenance.json. */
  title: string;
  /**
   * File stem of a bytes report's pages (`slug:`; default derived from the title, see
   * `slugOf` in parse.ts): lower-case letters and digits joined by single hyphens. Recorded in
   * provenance.json; undefined for matrices built in code (the runner then derives it from the title).
   */
  slug?: string;
  /** Top-level counted runs per configuration (default 1; 0 means zero). */
  repeats: number;
  /** Top-level warm-up runs per configuration (default 0). */
  warmup?: number;
  /** Wall-clock limit of one run, milliseconds. */
  timeoutMs: number;
  /** Application bytes one run's capture may hold (`captureLimitMiB:` × 2^20); undefined: the default, 64 MiB (runner/capture/writer.ts). */
  captureLimitBytes?: number;
  /** `measures:` as written (default `["bytes"]`); undefined for matrices built in code (= bytes). */
  measures?: string[];
  /**
   * The `timing:` block as written (validated by matrix.schema.json), read into typed options by
   * the timing and per-call engines; undefined when absent.
   */
  timing?: Record<string, unknown>;
  axes: Axis[];
  targets: Record<string, Target>;
  /**
   * MCP flows by name (`flows:`, runner/matrix/flows.ts): the steps the raw driver and the SDK
   * clients run for a `flow` axis value; undefined when the matrix declares none (then
   * STANDARD_FLOWS, see `flowsOf`).
   */
  flows?: Record<string, FlowDefinition>;
  /** Clients declared in the matrix (`clients:`), by name: values the `client` axis may take beside the built-in drivers. */
  clients?: Record<string, DeclaredClient>;
  /** Main-grid restriction (axis → values); undefined = every value of every axis. */
  grid?: Match;
  exclude?: ExcludeRule[];
  include?: IncludeRule[];
  sweeps?: Sweep[];
  /**
   * Source position `file:line:col` of the node at a path in the file (e.g. `["axes", 2, "id"]`),
   * or of its nearest existing parent; undefined for matrices built in code.
   */
  locate?: (...path: (string | number)[]) => string;
}

/** One cell of the expanded matrix. */
export interface Configuration {
  /** Stable id: per-axis id parts joined by `-`, in axis order (default values leave their part out). */
  id: string;
  /** Axis name → value, every axis present. */
  values: Record<string, string>;
  /** Counted runs (≥ 1; cells with 0 are listed as excluded). */
  repeats: number;
  /** Warm-up runs before the counted ones, discarded (≥ 0). */
  warmup?: number;
}

/** A cell that expansion left out, with the reason (e.g. "target mcp-ts-v1 does not speak revision 2026-07-28"). */
export interface ExcludedCell {
  id: string;
  values: Record<string, string>;
  reason: string;
}

/** A tool call a flow makes: the tool's name and its arguments (a JSON object). */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
}
