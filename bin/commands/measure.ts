/**
 * `wirecost measure`: one MCP server, as it is, to a results folder and a page. The command
 * writes a matrix for that one server (`<results>/measure.yaml`: the raw driver, the revisions the
 * server speaks found by asking it (`revisions: auto`), flow `list` — tools/list after the session
 * opens — or, with `--tool`, flow `call`, one tools/call of it too), runs it like `wirecost run`
 * and renders the page into `--site`. The server is a command (`-- CMD ARGS…`, stdio; `--http
 * 'CMD … {port}'`, a shell command line that starts it listening on 127.0.0.1:{port}; both for
 * both transports), a package installed from its registry into `.wirecost/build/` (`--npm
 * PKG@VERSION`, `--pypi PKG==VERSION`; the version recorded in provenance.json), or a server
 * already running on 127.0.0.1 (`--url`). Which transports it measures, and why not the other,
 * is printed. After the run it writes the tool catalog files (`tools.tsv`, `tools-changes.tsv`,
 * runner/results/tool-catalog.ts), which the page shows.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { valid as pep440Valid } from "@renovatebot/pep440";
import semver from "semver";
import { UserError } from "../../format/errors.js";
import { makeFolder, writeAtomic } from "../../format/files.js";
import { shellQuote } from "../../format/shell.js";
import { messagesPath, planPath, RESERVED_SLUGS, resultsFile, stagingDir } from "../../format/layout.js";
import { readMedians } from "../../format/medians.js";
import { readMessagesFile } from "../../format/messages.js";
import { TOOL_COLUMNS, type ToolRow } from "../../format/tools.js";
import { readSummary } from "../../format/summary.js";
import { writeToolCatalog } from "../../runner/results/tool-catalog.js";
import { ENCODINGS, tokenizerNames } from "../../runner/count/tokens.js";
import { parseMatrix } from "../../runner/matrix/parse.js";
import { RAW_CLIENT } from "../../runner/drivers/declarations.js";
import { runWithMode } from "../../runner/modes/index.js";
import { repoRoot } from "../../runner/paths.js";
import { waitForPort } from "../../runner/targets/process.js";

/** Options of `wirecost measure` as commander parses them. */
export interface MeasureCommandOptions {
  http?: string;
  url?: string;
  npm?: string;
  pypi?: string;
  tool?: string;
  args?: string;
  name?: string;
  repeats: number;
  /** Runs side by side (`--jobs`; default the run's, two per core). */
  jobs?: number;
  /** Seconds one probe of a revision waits for the server's answer (`--probe-timeout`, default 10). */
  probeTimeout?: number;
  results?: string;
  site?: string;
}

/** `{` and `}` of a user's argument as literal braces in a matrix command (README, "Placeholders"). */
const literal = (s: string): string => s.replaceAll("{", "{{").replaceAll("}", "}}");

/**
 * An npm package name as the registry takes it (npm's rules, as the `validate-npm-package-name`
 * package checks them: URL-safe characters, no leading `.` or `_`, an optional `@scope/`; legacy
 * upper-case names are let through), at most 214 characters.
 */
const NPM_NAME = /^(?:@[a-zA-Z0-9-*~][a-zA-Z0-9-*._~]*\/)?[a-zA-Z0-9-~][a-zA-Z0-9-._~]*$/;

/** A PyPI project name (PEP 508 / the core metadata's `Name`: letters, digits, `.`, `_`, `-`, starting and ending with a letter or digit). */
const PYPI_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?$/;

/**
 * The package and exact version of `--npm PKG@VERSION` or `--pypi PKG==VERSION`.
 * @throws UserError naming the option when the name is not a package name (a path, `../x`) or the
 *   version is missing or not one exact version (npm: semver; PyPI: PEP 440)
 */
export function packageSpec(option: "--npm" | "--pypi", spec: string): { pkg: string; version: string } {
  const npm = option === "--npm";
  const at = npm ? spec.lastIndexOf("@") : spec.indexOf("==");
  const pkg = at > 0 ? spec.slice(0, at) : spec;
  const version = at > 0 ? spec.slice(at + (npm ? 1 : 2)) : "";
  const example = npm ? "--npm @modelcontextprotocol/server-everything@2026.8.31" : "--pypi mcp-server-time==2026.1.26";
  if (npm ? !NPM_NAME.test(pkg) || pkg.length > 214 : !PYPI_NAME.test(pkg))
    throw new UserError(
      `${option} ${spec}: ${JSON.stringify(pkg)} is not ${npm ? "an npm" : "a PyPI"} package name — give the registry's name and an exact version, e.g. ${example} (a server on disk: wirecost measure -- CMD ARGS…)`,
    );
  if (version === "" || (npm ? semver.valid(version) !== version : pep440Valid(version) === null))
    throw new UserError(
      `${option} ${spec}: ${version === "" ? "no version" : `${JSON.stringify(version)} is not one exact version`} — give the exact version to install, ${npm ? "PKG@VERSION" : "PKG==VERSION"}, e.g. ${example}`,
    );
  return { pkg, version };
}

/** A JSON string or number token, in order (the text has been parsed: no other token holds a digit). */
const JSON_STRING_OR_NUMBER = /"(?:[^"\\]|\\.)*"|-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/g;

/**
 * The first number of a JSON text (one JSON.parse took) whose value the arguments sent would not
 * hold: beyond a double's range (sent as `null` by JSON.stringify) or an integer beyond 2^53 that
 * becomes another integer. Other spellings (`1.0`, `1e2`, `\u00e9`) are sent in JSON.stringify's
 * form with the same value (RFC 8259 §6: numbers beyond a double's precision are not interoperable).
 * @returns the number as written and as it would be sent, or undefined when every number holds
 */
export function lossyNumber(json: string): { text: string; sent: string } | undefined {
  for (const [token] of json.matchAll(JSON_STRING_OR_NUMBER)) {
    if (token.startsWith('"')) continue;
    const value = Number(token);
    const sent = JSON.stringify(value);
    if (!Number.isFinite(value)) return { text: token, sent };
    if (/^-?\d+$/.test(token) && BigInt(token) !== BigInt(value)) return { text: token, sent };
  }
  return undefined;
}

/** Programs that start the server named after them (an interpreter, a package runner, a shell). */
const LAUNCHER = /^(node|python\d*(\.\d+)?|uv|uvx|npx|pipx|bun|bunx|deno|bash|sh)$/;

/**
 * The word of a server command that names the server: after a launcher ({@link LAUNCHER}), its
 * options (`npx -y`, `python -m`, `node --no-warnings`) and a `run` (`uv run`, `pipx run`) are
 * skipped; a package spec loses its version (`@scope/pkg@1.2.3` → `scope/pkg`, `pkg==1.0` → `pkg`);
 * a path its folder and `.js`/`.mjs`/`.py`.
 */
function commandName(argv: readonly string[]): string {
  let i = 0;
  if (LAUNCHER.test(basename(argv[0] ?? ""))) {
    i = 1;
    while (argv[i]?.startsWith("-") || (argv[i] === "run" && i === 1)) i++;
  }
  const word = argv[i] ?? argv[0] ?? "server";
  if (/^@[^/]+\/[^/]+$/.test(word)) return word.slice(1).replace(/(.)@[^@]*$/, "$1");
  return basename(word.replace(/(.)(@|==)[^@/=]*$/, "$1")).replace(/\.(m?js|py)$/, "");
}

/**
 * A name for the server: lower-case letters, digits and hyphens, at most 64 (it names the build
 * folder, the results folder and the page); a `--name` given otherwise is refused in one line. A scoped npm package is named by its scope and name
 * (`@playwright/mcp` → `playwright-mcp`), so that packages of one name in several scopes differ.
 */
function nameOf(o: MeasureCommandOptions, argv: string[], urlPort: number | undefined): string {
  const raw =
    o.name ??
    (urlPort !== undefined ? `server-${urlPort}` : undefined) ??
    (o.npm ? o.npm.replace(/(.)@[^@]*$/, "$1").replace(/^@/, "") : undefined) ??
    (o.pypi ? o.pypi.replace(/==.*$/, "") : undefined) ??
    commandName(argv);
  const name = raw
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
  if (!/^[a-z]/.test(name)) throw new UserError(`measure: "${raw}" gives no usable name — pass --name NAME (${NAME_RULE})`);
  // A name given by hand is used as given: one that would be changed (even in case) is refused, never renamed unseen.
  if (o.name !== undefined && name !== o.name)
    throw new UserError(`measure: --name ${JSON.stringify(o.name)}: a name is ${NAME_RULE} — pass --name ${name} or another such name`);
  // The name is the page's slug: `index` is the site's own index page.
  if (RESERVED_SLUGS.includes(name))
    throw new UserError(
      `measure: ${o.name !== undefined ? "--name " : "the name "}${name} names the site's own ${name} page — pass --name ${name}-server or another name`,
    );
  if (name.length > MAX_NAME_CHARS)
    throw new UserError(
      `measure: the name ${name.slice(0, 20)}… is ${name.length} characters (it names folders and files) — pass --name NAME of at most ${MAX_NAME_CHARS}`,
    );
  return name;
}

/** Characters of a server's name at most: it is part of configuration ids, folder and file names (a file name holds 255 bytes). */
const MAX_NAME_CHARS = 64;

/** What a server's name may be, as the refusals say it. */
const NAME_RULE = "lower-case letters and digits in runs joined by single hyphens, starting with a letter";

/**
 * A `--url` as the port and path of a server on 127.0.0.1. `localhost` is taken as 127.0.0.1
 * (wirecost connects to 127.0.0.1 only, never to what a resolver says; a server listening on ::1
 * only is not reached), with a note saying so; requests then name `localhost:PORT` in Host.
 * @throws UserError for a URL that is not `http://127.0.0.1:PORT/PATH` or `http://localhost:PORT/PATH`
 *   (loopback only: wirecost never sends traffic elsewhere)
 */
export function loopbackUrl(url: string): { host: "127.0.0.1" | "localhost"; port: number; path: string; note?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new UserError(`--url ${url}: not a URL — give the running server's address, e.g. --url http://127.0.0.1:3000/mcp`);
  }
  if (u.protocol !== "http:") throw new UserError(`--url ${url}: ${u.protocol.replace(/:$/, "")} is not measured — give an http:// URL on 127.0.0.1`);
  if (u.hostname !== "127.0.0.1" && u.hostname !== "localhost")
    throw new UserError(
      `--url ${url}: host ${u.hostname} is not 127.0.0.1 — wirecost measures loopback only; run the server on 127.0.0.1 and give --url http://127.0.0.1:PORT/PATH`,
    );
  if (u.port === "") throw new UserError(`--url ${url}: no port — give it, e.g. --url http://127.0.0.1:3000/mcp`);
  // The URL parser takes 0 to 65535; port 0 is nobody's listening port.
  if (Number(u.port) < 1)
    throw new UserError(
      `--url ${url}: port ${u.port} is not a port a server listens on (1–65535) — give the server's port, e.g. --url http://127.0.0.1:3000/mcp`,
    );
  const note =
    u.hostname === "localhost"
      ? `--url ${url}: localhost taken as 127.0.0.1 (wirecost connects to 127.0.0.1 only); requests name localhost:${u.port} in their Host header, as a client of that URL would`
      : undefined;
  return { host: u.hostname as "127.0.0.1" | "localhost", port: Number(u.port), path: `${u.pathname}${u.search}`, ...(note ? { note } : {}) };
}

/**
 * The folder a server installed by `--npm`/`--pypi` runs in: `.wirecost/measure/NAME/work` of the
 * checkout, so that files it writes land neither in the checkout nor in the results folder.
 */
export const serverWorkDir = (name: string): string => join(repoRoot, ".wirecost", "measure", name, "work");

/**
 * The tool's arguments of `--args`: a JSON object whose numbers JSON carries exactly; {} without it.
 * @throws UserError when it is not JSON, not an object, holds a number a double cannot hold, or comes without --tool
 */
function toolArguments(o: MeasureCommandOptions): Record<string, unknown> {
  if (o.args === undefined) return {};
  let args: Record<string, unknown>;
  try {
    args = JSON.parse(o.args) as Record<string, unknown>;
  } catch (e) {
    throw new UserError(
      `--args ${o.args}: not JSON (${(e as Error).message}) — give the tool's arguments as one JSON object, e.g. --args '{"timezone":"UTC"}'`,
    );
  }
  if (args === null || typeof args !== "object" || Array.isArray(args))
    throw new UserError(`--args ${o.args}: not a JSON object — e.g. --args '{"timezone":"UTC"}'`);
  const lossy = lossyNumber(o.args);
  if (lossy !== undefined)
    throw new UserError(
      `--args ${o.args}: the number ${lossy.text} would be sent as ${lossy.sent} — the arguments are sent as JSON numbers that are IEEE 754 doubles (JSON.stringify), which hold integers exactly only up to ±9007199254740991; give it as a string if the tool takes one, or a number it can hold`,
    );
  if (o.tool === undefined) throw new UserError("--args without --tool — name the tool the arguments are for: --tool NAME");
  return args;
}

/** The target keys of a server installed from npm (`--npm`) or PyPI (`--pypi`): its label, package, version, build and stdio command. */
function registryTarget(o: MeasureCommandOptions, name: string, argv: string[]): Record<string, unknown> {
  const script = (f: string) => join(repoRoot, "targets", "registry", f);
  const npm = o.npm !== undefined;
  const spec = (o.npm ?? o.pypi)!;
  const { pkg, version } = packageSpec(npm ? "--npm" : "--pypi", spec);
  return {
    label: `${pkg} ${version} (${npm ? "npm" : "PyPI"})`,
    package: pkg,
    version,
    build: {
      name: `measure-${name}`,
      command: [bash(), script(npm ? "install-npm.sh" : "install-pypi.sh"), "{build}", spec],
      inputs: [script(npm ? "install-npm.sh" : "install-pypi.sh")],
      toolchain: npm
        ? [{ command: "npm", version: ["npm", "--version"], install: "Node.js 20 with npm" }]
        : [{ command: "python3", probe: ["python3", "-m", "venv", "--help"], version: ["python3", "--version"], install: "Python 3 with its venv module" }],
      resolved: npm ? { from: "npm", path: "{build}/package-lock.json" } : { from: "pip", path: "{build}/venv/bin/python" },
    },
    stdio: { argv: [bash(), "-c", 'cd "$0" && exec "$@"', literal(serverWorkDir(name)), "{build}/bin/server", ...argv.map(literal)] },
  };
}

/** Why a measured server is measured on one transport only, for the page. */
function oneTransportWhy(o: MeasureCommandOptions): string {
  if (o.url !== undefined)
    return "Streamable HTTP only: the server is already running, its stdio cannot be reached (give the command after -- instead of --url to measure stdio too)";
  if (o.http !== undefined) return "Streamable HTTP only: give the stdio command after -- too to measure stdio";
  return "stdio only: wirecost cannot know how this server listens over HTTP — give --http 'CMD … {port}' too (with --npm/--pypi, {server} in it is the installed server) to measure Streamable HTTP";
}

/**
 * The matrix (JSON, which YAML reads) that measures one server, and the transports it measures
 * with the reason for any left out. The server over stdio (`-- CMD ARGS…`, or `--npm`/`--pypi`),
 * over Streamable HTTP (`--http 'CMD … {port}'`: with `--npm`/`--pypi`, `{server}` in it is the
 * installed server's launcher; or `--url` for one already running on 127.0.0.1, reached through
 * `wirecost capture`'s relay as its target command), or both when both are given.
 * @throws UserError for no server or a doubled one, `--args` that is not a JSON object or holds a
 *   number that would be sent as another value ({@link lossyNumber}), an `--http`
 *   line without `{port}`, or a `--url` that is not on 127.0.0.1
 */
export function measureMatrix(
  argv: string[],
  o: MeasureCommandOptions,
  cwd: string,
): { name: string; matrix: Record<string, unknown>; transports: string[]; why?: string } {
  const registry = o.npm !== undefined || o.pypi !== undefined;
  const stdioCommand = argv.length > 0 && !registry;
  if (
    (o.npm !== undefined && o.pypi !== undefined) ||
    (o.url !== undefined && (o.http !== undefined || registry)) ||
    !(stdioCommand || registry || o.http !== undefined || o.url !== undefined)
  )
    throw new UserError(
      "measure: name one server — -- CMD ARGS… (stdio), --http 'CMD … {port}' (both for both transports), --npm PKG@VERSION or --pypi PKG==VERSION (with --npm/--pypi, arguments after -- go to the server), or --url http://127.0.0.1:PORT/PATH for one already running",
    );
  const args = toolArguments(o);
  if (o.npm !== undefined) packageSpec("--npm", o.npm);
  if (o.pypi !== undefined) packageSpec("--pypi", o.pypi);
  const url = o.url !== undefined ? loopbackUrl(o.url) : undefined;
  const name = nameOf(o, argv, url?.port);
  const target: Record<string, unknown> = { label: name, revisions: "auto" };
  if (o.tool !== undefined) target.tool = { name: o.tool, arguments: args };
  if (o.npm || o.pypi) Object.assign(target, registryTarget(o, name, argv));
  else if (stdioCommand) target.stdio = { argv: [bash(), "-c", 'cd "$0" && exec "$@"', literal(cwd), ...argv.map(literal)] };
  if (o.http !== undefined) {
    if (!o.http.includes("{port}"))
      throw new UserError(`--http ${o.http}: no {port} — the command must listen on 127.0.0.1:{port}, e.g. --http 'node server.js --port {port}'`);
    if (o.http.includes("{server}") && !registry)
      throw new UserError(`--http ${o.http}: {server} names the server --npm or --pypi installs — give the command itself, or install with --npm/--pypi`);
    const line = literal(o.http).replaceAll("{{port}}", "{port}").replaceAll("{{server}}", '"{build}/bin/server"');
    // A command given runs where measure was started, as in a shell (its relative paths hold); an installed server in its work folder.
    target.http = { argv: [bash(), "-c", `cd "$0" && exec ${line}`, literal(registry ? serverWorkDir(name) : cwd)] };
  }
  if (url !== undefined) {
    // wirecost's own relay stands in for the target: it listens on {port} and passes every
    // connection, byte for byte, to the running server (the run's relay counts the bytes).
    target.http = {
      argv: [
        process.execPath,
        join(repoRoot, "dist", "bin", "wirecost.js"),
        "capture",
        "--upstream",
        `${url.host}:${url.port}`,
        "--listen",
        "127.0.0.1:{port}",
        "--log",
        "/dev/null",
        "--quiet",
      ],
    };
  }
  const transports = ["stdio", "http"].filter((t) => target[t] !== undefined);
  const why = transports.length === 2 ? undefined : oneTransportWhy(o);
  const flow = o.tool !== undefined ? "call" : "list";
  const path = url !== undefined && url.path !== "/mcp" ? [{ name: "path", values: [url.path], id: "" }] : [];
  const matrix = {
    version: 1,
    title: `${name} on the wire`,
    slug: name,
    repeats: o.repeats,
    timeoutSeconds: 60,
    axes: [
      { name: "client", values: ["raw"] },
      { name: "target", values: [name] },
      { name: "transport", values: transports },
      { name: "revision", values: [...RAW_CLIENT.revisions] },
      { name: "flow", values: [flow] },
      ...path,
    ],
    flows: {
      list: { description: "the session opened the revision's way, then tools/list", steps: ["open", "list-tools"] },
      call: { description: `tools/list, then one tools/call of ${o.tool ?? "the tool"}`, steps: ["open", "list-tools", "call-tool"] },
    },
    targets: { [name]: target },
  };
  return { name, matrix, transports, ...(why ? { why } : {}) };
}

/**
 * Bytes of the JSON-RPC messages that answered tools/list in repeat `repeat` of `config` (their
 * body bytes in the per-message table, `messages.tsv`, summed over the pages of a server that
 * paginates), or `-` when that run has no such row.
 */
function toolsListBytes(results: string, config: string, repeat: number | undefined): string {
  if (repeat === undefined) return "-";
  const rows = readMessagesFile(messagesPath(results, config, repeat)) ?? [];
  const hits = rows.filter((r) => r.dir === "s2c" && r.method === "tools/list" && r.kind === "result");
  return hits.length ? String(hits.reduce((sum, r) => sum + r.bodyBytes, 0)) : "-";
}

/**
 * Print, per configuration, each tool definition's bytes and tokens (tools.tsv, written by
 * runner/results/tool-catalog.ts), and why a configuration has no catalog.
 */
function printToolCosts(tools: readonly ToolRow[]): void {
  for (const t of tools.filter((t) => t.tool === "")) process.stderr.write(`measure: ${t.config}: no tool catalog — ${t.note}\n`);
  const rows = tools.filter((t) => t.tool !== "");
  if (!rows.length) return;
  process.stdout.write(`${TOOL_COLUMNS.slice(1, -1).join("\t")}\t(tokenizers: ${tokenizerNames().join(", ")})\n`);
  for (const t of rows)
    process.stdout.write(`${[t.transport, t.revision, t.tool, t.definitionBytes, ...ENCODINGS.map((e) => t.tokens?.[e] ?? "not counted")].join("\t")}\n`);
}

/** The bash on PATH, by name (the runner finds it). */
const bash = () => "bash";

/** How long `--url`'s port is tried before measure says nothing listens there. */
const URL_LISTEN_WAIT_MS = 1000;

/**
 * Refuse a `--url` on whose port nothing accepts a connection on 127.0.0.1 (tried for
 * {@link URL_LISTEN_WAIT_MS}), before anything is written: every probe would fail on it.
 * @throws UserError naming the URL and the fix
 */
async function refuseNothingListening(url: string, port: number): Promise<void> {
  try {
    await waitForPort(port, URL_LISTEN_WAIT_MS, () => true);
  } catch {
    throw new UserError(
      `--url ${url}: nothing accepts connections on 127.0.0.1:${port} — start the server first (--url measures one already running), or give its command: --http 'CMD … {port}'`,
    );
  }
}

/**
 * The lines that say which of measure's own options (`ownOptions`, e.g. `--results`) stand after
 * `--`, where they go to the server, not to measure (a server that does not take them exits at
 * start, and measure goes on without that transport). Not refused: a server may take an option of
 * the same name.
 * @returns one line per such option, empty when none
 */
export function optionsAfterDashes(argv: readonly string[], ownOptions: readonly string[]): string[] {
  const found = [...new Set(argv.map((a) => a.split("=")[0]!).filter((a) => ownOptions.includes(a)))];
  return found.map(
    (opt) =>
      `${opt} after -- goes to the server, not to measure — put measure's options before -- (if the server takes ${opt} itself, this line is all it costs)`,
  );
}

/**
 * Refuse a results folder holding another server's measure: its `measure.yaml` (`file`) names a
 * target other than `name`. A measure replaces the results of the server it measures (a new
 * version, other options), never those of another one. Nothing to refuse when the file is
 * missing or unreadable (the run's own checks speak for that).
 * @throws UserError naming the folder, the server it holds and the way on (a folder of its own)
 */
function refuseAnotherServer(file: string, name: string): void {
  if (!existsSync(file)) return;
  let held: string[] = [];
  try {
    held = Object.keys((JSON.parse(readFileSync(file, "utf8")) as { targets?: Record<string, unknown> }).targets ?? {});
  } catch {
    return;
  }
  if (held.length === 0 || held.includes(name)) return;
  throw new UserError(
    `--results ${dirname(file)}: holds the measure of ${held.join(", ")}, which a measure of ${name} would replace — give --results a folder of its own`,
  );
}

/**
 * Measure one server: check every argument and the matrix made of them, run it, and, once its
 * results are in the folder, write its matrix (`measure.yaml`), render its page and print where
 * they are. Nothing is written before the arguments are checked. Into a folder that holds results
 * of an earlier measure, the new ones replace them only when every run is ok: a failed measure
 * (a mistyped `--tool`, a server that no longer starts) leaves the folder, its `measure.yaml`,
 * `tools.tsv` and the page as they were, and says where the failed runs are (`.wirecost-next/`).
 * An interrupted measure (^C) renders no page: it says where the runs it finished are.
 * @param ownOptions measure's own long options, as commander lists them (for {@link optionsAfterDashes})
 * @returns the run's exit code (0 all ok, 1 a run failed, 130 interrupted)
 * @throws UserError for bad arguments (see {@link measureMatrix}), a `--url` on whose port nothing listens, or a
 *   results folder that cannot be written
 */
export async function measureCommand(argv: string[], o: MeasureCommandOptions, ownOptions: readonly string[] = []): Promise<number> {
  const { name, matrix, why } = measureMatrix(argv, o, process.cwd());
  const url = o.url !== undefined ? loopbackUrl(o.url) : undefined;
  if (url !== undefined) await refuseNothingListening(o.url!, url.port);
  for (const line of optionsAfterDashes(argv, ownOptions)) process.stderr.write(`measure: ${line}\n`);
  if (why) process.stderr.write(`measure: ${why}\n`);
  if (url?.note) process.stderr.write(`measure: ${url.note}\n`);
  const results = resolve(o.results ?? join(".wirecost", "measure", name, "results"));
  const site = resolve(o.site ?? join(results, "..", "site"));
  const file = join(results, "measure.yaml");
  // A folder holding results that no measure wrote (no measure.yaml beside them) is not measure's to replace.
  if (!existsSync(file) && (existsSync(planPath(results)) || existsSync(resultsFile(results, "summary"))))
    throw new UserError(
      `--results ${results}: holds results that wirecost measure did not write (no measure.yaml in it), which a measure would replace — give measure a folder of its own`,
    );
  refuseAnotherServer(file, name);
  const text = `${JSON.stringify(matrix, null, 2)}\n`;
  // Read as the file will be: a matrix the schema refuses is refused before anything is written.
  const parsed = parseMatrix(text, file);
  if (o.tool === undefined) process.stderr.write("measure: no --tool given: tools/list only (give --tool NAME --args JSON to call one)\n");
  makeFolder(results);
  if (o.npm !== undefined || o.pypi !== undefined) makeFolder(serverWorkDir(name));
  // The command that reruns a failed measure is this one, as given (runs the measure again whole).
  const rerunCommand = ["npx", "wirecost", ...process.argv.slice(2)].map(shellQuote).join(" ");
  // A runs.tsv older than this (an earlier measure's) holds nothing of this one.
  const startedMs = Date.now();
  const code = await runWithMode(parsed, file, {
    results,
    only: [],
    fresh: true,
    replaceOnlyIfOk: true,
    rerunCommand,
    jobs: o.jobs,
    probeTimeoutMs: (o.probeTimeout ?? 10) * 1000,
  });
  if (existsSync(planPath(stagingDir(results)))) {
    process.stderr.write(
      `measure: the results in ${results}/ (its measure.yaml, tools.tsv and page) stay as they were; the new runs are in ${stagingDir(results)}/\n`,
    );
    return code;
  }
  writeAtomic(file, text);
  if (code === 130) {
    // An unfinished measure is not rendered: its configurations hold fewer repeats than asked, and
    // a page comparing them would show a repeat's difference as a revision's.
    if (existsSync(resultsFile(results, "runs")) && statSync(resultsFile(results, "runs")).mtimeMs >= startedMs)
      process.stderr.write(
        `measure: interrupted — no page rendered from an unfinished measure; the runs written are in ${results}/ (run the command again to measure anew)\n`,
      );
    return code;
  }
  const { tools, findings, repeatOf } = writeToolCatalog(results);
  const { render, indexNote } = await import("../../generators/render.js");
  const rendered = await render({ results, site });
  if (rendered.indexOf !== undefined) process.stderr.write(`measure: ${indexNote(site, rendered.indexOf)}\n`);
  for (const [config, metrics] of readMedians(resultsFile(results, "medians"), "run measure again")) {
    const total = metrics.get("total_bytes");
    if (total === undefined) continue;
    process.stdout.write(`${config}\ttotal_bytes\t${total.median}\ttools/list answer bytes\t${toolsListBytes(results, config, repeatOf.get(config))}\n`);
  }
  printToolCosts(tools);
  // Bytes the counter could not read as the transport's messages (a log line on stdout, a broken frame): counted and named, said here too.
  for (const c of readSummary(resultsFile(results, "summary"), "run measure again").configs)
    if (c.anomalies.size > 0)
      process.stderr.write(
        `measure: ${c.config}: anomalies in the server's bytes (counted as they stand): ${[...c.anomalies].map(([code, n]) => `${code} × ${n}`).join(", ")} — see the page's anomalies\n`,
      );
  // Text from the wire: control characters shown as U+FFFD so a server cannot drive the terminal.
  for (const f of findings)
    process.stderr.write(
      `measure: ${f.config}${f.repeat === undefined ? "" : ` repeat ${f.repeat}`}: ${f.finding.replace(/[\u0000-\u001f\u007f-\u009f]/g, "\ufffd")}\n`,
    );
  process.stderr.write(`measure: results in ${results}/, page ${join(site, `${name}.html`)}\n`);
  return code;
}
