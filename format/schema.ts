/**
 * Schema versions of every report kind's results files, and the shapes of the JSON records the
 * runner writes and the generators read (provenance.json, the build records inside it and inside
 * timings-run.json and percall-run.json). A reader refuses a version it does not know with the
 * command that gets out of it; the readers of older versions (their migrations) sit beside each
 * reader and are listed here (the bytes format's: format/migrations.ts).
 */

/**
 * Version of a bytes results folder (runs/plan.json, runs/<config>/<repeat>.json, the TSV files,
 * provenance.json). Readable: 1 only; the columns and keys added within it, and how a file written
 * before each reads, are format/migrations.ts `WIRE_CHANGES`.
 */
export const SCHEMA_VERSION = 1;

/**
 * Version of a timing folder's `timings-run.json` (and the `timings.tsv` metrics beside it; 2: each
 * throughput window also records its tick figure, `tput_c<N>_ticks_per_request_us`, `_ticks` and
 * `_quantisation_error_pct`, the time-window probe). Readable: 1 and 2; a schema-1 folder has no
 * tick figures for its windows. `machine.clockTicksPerSecond` (`getconf CLK_TCK`, the tick's length
 * the tick figures were converted with) is an additive key of 2: folders written before it lack it.
 */
export const TIMINGS_SCHEMA_VERSION = 2;

/** Timing schema versions the reader takes (generators/results/timings.ts). */
export const TIMINGS_READABLE_VERSIONS: readonly number[] = [1, TIMINGS_SCHEMA_VERSION];

/**
 * Version of the per-call files (3: status, reason, measured_by, runtime, client; harness call
 * samples; 4: client_cpu_per_call_us, and rows timed through the target's own SDK client, named
 * in `client`; 5: `server`, the target whose server answered, and rows of clients declared under
 * `clients:` against another server). Readable: 2 to 5; schema 2's rows read as measured by
 * wirecost and ok; schema 2's and 3's rows have no CPU per call; schema 2's to 4's rows' server is
 * their target (in-process: none).
 */
export const PERCALL_SCHEMA_VERSION = 5;

/** Per-call schema versions the reader takes (format/percall.ts). */
export const PERCALL_READABLE_VERSIONS: readonly number[] = [2, 3, 4, PERCALL_SCHEMA_VERSION];

/** What a results file records of one target build (runner/build/build.ts writes it). */
export interface BuildProvenance {
  /** `pip`, `cargo` or `go`: where the resolved set was read from; absent when none was read. */
  ecosystem?: string;
  /** Toolchain command → its version line (e.g. `go` → `go version go1.26.8 linux/amd64`). */
  toolchain: Record<string, string>;
  /** Resolved dependency set: package name → version. */
  packages: Record<string, string>;
  /** sha256 hex cache key of the build (command, toolchain versions, input contents). */
  digest: string;
  /** When the build finished, ISO 8601 UTC. */
  builtAt: string;
}

/**
 * One client of a bytes folder in provenance.json (`clients.<name>`): the protocol it speaks and,
 * for a client declared in the matrix (`clients:`, run as a command), `declared: true` and its
 * `label`.
 */
export interface ClientProvenance {
  protocol: "mcp" | "jsonrpc";
  /** Set for a client declared in the matrix (a command), absent for wirecost's own drivers. */
  declared?: true;
  /** How pages name a declared client (its `label:`). */
  label?: string;
}

/** The provenance record of a bytes folder (provenance.json). Times are ISO 8601 UTC. */
export interface Provenance {
  schemaVersion: number;
  tool: { name: string; version: string };
  git: { commit: string; dirty: boolean };
  matrix: { file: string; sha256: string };
  /** npm package → installed version, for every target package named by the matrix. */
  packages: Record<string, string>;
  /**
   * Who the report is (bytes runs): the matrix's `title` and `slug` (the file stem of the report's
   * pages). Results written before this key existed render as "MCP on the wire", `mcp-on-the-wire`.
   */
  report?: { title: string; slug: string };
  /**
   * Client name (value of the `client` axis, `raw` when there is none) → the protocol its driver
   * speaks; pages show MCP sections only for configurations whose client speaks `mcp`. Absent in
   * results written before it existed (all MCP).
   */
  clients?: Record<string, ClientProvenance>;
  /** Target name → how pages name it (`label` from the matrix) and the package it runs on. */
  targets: Record<string, { label: string; package?: string }>;
  /**
   * The flows the run's configurations ran (values of the `flow` axis that the matrix declares
   * under `flows:`, or wirecost's standard ones) → their `description` (when given) and steps in
   * words (`open, list-tools, call-tool`); absent in results written before it.
   */
  flows?: Record<string, { description?: string; steps: string }>;
  /** The tokenizers of the `tokens_<encoding>` columns, each with its package and version (`o200k_base (gpt-tokenizer 4.0.0)`; results counted before 2026-12-05 name js-tiktoken 1.0.21); absent before tokens were counted. */
  tokenizers?: string[];
  /**
   * Built targets (`build:` in the matrix) → their toolchain versions, ecosystem, full resolved
   * dependency set and the build's cache key; absent when the matrix builds nothing.
   */
  builds?: Record<string, BuildProvenance>;
  node: string;
  os: { platform: string; release: string; arch: string };
  cpu: { model: string; cores: number; clockTicksPerSecond: number };
  startedAt: string;
  endedAt: string;
  command: string;
}
