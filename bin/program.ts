/**
 * The wirecost command line's definition (commander): every command, argument and option, and
 * the actions, which load their modules on demand. `bin/wirecost.ts` parses `process.argv` with
 * it; tests parse the commands wirecost prints with it, actions replaced (test/execute/suggested-commands.test.ts).
 */
import { Command, InvalidArgumentError } from "commander";
import { toolInfo } from "../runner/paths.js";
import { maxJobs } from "../runner/execute/jobs.js";
import { MAX_REPEATS } from "../runner/matrix/types.js";

/**
 * A whole number option value.
 * @throws InvalidArgumentError (commander prints it on one line) below `min` or above `max`
 */
function count(v: string, name: string, min = 0, max = Number.POSITIVE_INFINITY, why = ""): number {
  if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max)
    throw new InvalidArgumentError(`${name} takes a whole number ${max === Number.POSITIVE_INFINITY ? `≥ ${min}` : `from ${min} to ${max}${why}`}, got "${v}"`);
  return Number(v);
}
const collect = (v: string, prev: string[]) => [...prev, v];
/** `--repeats`: 0 to {@link MAX_REPEATS}. */
const repeatsOption = (v: string) => count(v, "--repeats", 0, MAX_REPEATS);
/** `--jobs`: 1 to {@link maxJobs}. */
const jobs = (v: string) => count(v, "--jobs", 1, maxJobs(), " on this machine (4 per core, at most 64; default: two per core)");

/**
 * The folders and files named on the command line being run, as `[option or argument, value]`
 * (e.g. `["--results", "results"]`), defaults included; set before each action runs. The top
 * level turns a file-system error under one of them into one line naming it (format/errors.ts
 * fileSystemError).
 */
export const namedPaths: [string, string][] = [];

/** Options whose value is a folder or file path. */
const PATH_OPTIONS = ["results", "site", "scratch", "predictions", "log"] as const;

/** The wirecost program: commands, options and actions (parse it with `parseAsync`). */
export function buildProgram(): Command {
  const program = new Command("wirecost")
    .description("Measure what a protocol layer costs on the wire.")
    .version(toolInfo().version, "-V, --version", "print the wirecost version")
    .showSuggestionAfterError();
  program.hook("preAction", (_program, action) => recordNamedPaths(action));
  addRunCommands(program);
  addCaptureCommands(program);
  addReportCommands(program);
  return program;
}

/** Before a command runs: the paths it was given, by option or argument name, into {@link namedPaths}. */
function recordNamedPaths(action: Command): void {
  namedPaths.length = 0;
  const opts = action.opts() as Record<string, unknown>;
  for (const key of PATH_OPTIONS) if (typeof opts[key] === "string") namedPaths.push([`--${key}`, opts[key] as string]);
  action.registeredArguments.forEach((a, i) => {
    const v = action.processedArgs[i] as unknown;
    for (const p of Array.isArray(v) ? v : [v]) if (typeof p === "string") namedPaths.push([a.name().toUpperCase(), p]);
  });
}

/** The commands that run a matrix: expand, run, verify, merge. */
function addRunCommands(program: Command): void {
  program
    .command("expand")
    .description("print the configurations of a matrix")
    .argument("[matrix]", "matrix file", "matrix.yaml")
    .option("--format <format>", "tsv or json", "tsv")
    .option("--all", "also print excluded cells with their reason")
    .action(async (matrix: string, o: { format: string; all?: boolean }) => (await import("./commands/expand.js")).expandCommand(matrix, o));

  program
    .command("run")
    .description("run a matrix against real targets and write results")
    .argument("[matrix]", "matrix file", "matrix.yaml")
    .option("--only <glob>", "run only configurations whose id matches (repeatable)", collect, [])
    .option("--repeats <n>", "runs per configuration, overriding the matrix", repeatsOption)
    .option("--jobs <n>", "concurrent runs (default: two per core; at most 4 per core and 64)", jobs)
    .option("--results <dir>", "results folder (locked while a run writes it)", "results")
    .option("--shard <k/n>", "run only shard K of N (deterministic partition of configuration ids)")
    .option("--resume", "continue an interrupted run in --results: keep runs already ok, run the rest")
    .option("--fresh", "start --results afresh even when that drops results of configurations this run does not select")
    .option("--skip-missing-toolchains", "record the runs of a target whose build toolchain is missing as skipped (with what to install) instead of refusing")
    .option("--strict", "bytes runs: a run whose capture log has an anomaly fails, naming it, instead of being counted with the anomaly named")
    .action(async (matrix: string, o: import("./commands/run.js").RunCommandOptions) => (await import("./commands/run.js")).runCommand(matrix, o));

  program
    .command("verify")
    .description("re-run configurations into a scratch folder and compare with a results folder cell by cell")
    .argument("[matrix]", "matrix file", "matrix.yaml")
    .option("--only <glob>", "verify only configurations whose id matches (repeatable)", collect, [])
    .option("--results <dir>", "results folder to check", "results")
    .option("--scratch <dir>", "folder for the re-run (default: a new temp folder)")
    .option("--repeats <n>", "runs per configuration (default: as recorded)", repeatsOption)
    .option("--jobs <n>", "concurrent runs (default: two per core; at most 4 per core and 64)", jobs)
    .action(async (matrix: string, o: import("./commands/verify.js").VerifyCommandOptions) => (await import("./commands/verify.js")).verifyCommand(matrix, o));

  program
    .command("merge")
    .description("merge shard results folders (run --shard K/N) into one")
    .argument("<dirs...>", "shard results folders")
    .requiredOption("--results <dir>", "merged results folder")
    .option("--fresh", "replace --results even when it holds results the merged folders do not have")
    .action(async (dirs: string[], o: { results: string; fresh?: boolean }) => (await import("./commands/merge.js")).mergeCommand(dirs, o));
}

/** The commands that capture and count: count, capture, measure, recount. */
function addCaptureCommands(program: Command): void {
  program
    .command("count")
    .description("count one capture log and print one TSV row (anomalies on stderr)")
    .argument("<log>", "capture log (JSON lines)")
    .option("--stdio", "the log is of a stdio session (default: HTTP)")
    .option("--per-message", "print the per-message breakdown instead")
    .option("--strict", "fail on the first anomaly (a byte that is not in the expected shape) instead of counting and naming it")
    .action(async (log: string, o: { stdio?: boolean; perMessage?: boolean; strict?: boolean }) => (await import("./commands/count.js")).countCommand(log, o));

  program
    .command("capture")
    .description(
      "put the relay (--upstream) or the stdio tap (-- CMD) between a client and a server and write a capture log; ends on ^C or when the peers close",
    )
    .argument("[command...]", "stdio tap: the server command and its arguments, after --")
    .requiredOption("--log <file>", "capture log to write (created or truncated)")
    .option("--upstream <addr>", "relay: the server's address, 127.0.0.1:PORT (or localhost:PORT: reached on 127.0.0.1, named so in Host)")
    .option("--listen <addr>", "relay: address to listen on, 127.0.0.1:PORT (default: a free port; printed)")
    .option("--count", "count the log at the end and print the row (relay: stdout; stdio tap: stderr)")
    .option("--quiet", "no summary line (bytes relayed, the log's path) on stderr at the end; wirecost run's stdio wrapper passes it")
    .option(
      "--limit-mib <n>",
      "stop when the log holds this many MiB of application bytes (both ways; default 64): connections closed, the command ended, exit 1",
      (v: string) => count(v, "--limit-mib", 1, 4096),
    )
    .action(async (command: string[], o: import("./commands/capture.js").CaptureCommandOptions) => {
      process.exitCode = await (await import("./commands/capture.js")).captureCommand(command, o);
    });

  program
    .command("measure")
    .description("measure one MCP server as it is: the revisions it speaks, its tools/list and (with --tool) one call, into a results folder and a page")
    .argument("[command...]", "stdio: the server command and its arguments, after -- (with --npm/--pypi: arguments for the server)")
    .option(
      "--http <command>",
      "a shell command line that starts the server listening on 127.0.0.1:{port} (with -- CMD too: both transports; with --npm/--pypi, {server} is the installed server)",
    )
    .option("--url <url>", "a server already running on 127.0.0.1: http://127.0.0.1:PORT/PATH (Streamable HTTP)")
    .option("--npm <pkg@version>", "install the server from npm into .wirecost/build/ (its first bin)")
    .option("--pypi <pkg==version>", "install the server from PyPI into a venv in .wirecost/build/ (its first console script)")
    .option("--tool <name>", "the tool to call once after tools/list (without it: tools/list only)")
    .option("--args <json>", "the tool's arguments, a JSON object")
    .option("--name <name>", "the server's name in ids and pages (default: from the package or command)")
    .option("--repeats <n>", "runs per revision", (v) => count(v, "--repeats", 1, MAX_REPEATS), 5)
    .option("--jobs <n>", "concurrent runs (default: two per core; 1 for a server that keeps state between runs)", jobs)
    .option("--probe-timeout <seconds>", "how long asking the server one revision waits for its answer", (v) => count(v, "--probe-timeout", 1, 600), 10)
    .option("--results <dir>", "results folder (default: .wirecost/measure/NAME/results)")
    .option("--site <dir>", "site folder (default: beside the results folder, .../NAME/site)")
    .action(async (command: string[], o: import("./commands/measure.js").MeasureCommandOptions, self: Command) => {
      const own = self.options.flatMap((x) => (x.long ? [x.long] : []));
      process.exitCode = await (await import("./commands/measure.js")).measureCommand(command, o, own);
    });

  program
    .command("recount")
    .description("count a bytes results folder again from its kept capture logs and rewrite each run's messages.tsv (runs nothing)")
    .option("--results <dir>", "results folder", "results")
    .action(async (o: { results: string }) => (await import("./commands/recount.js")).recountCommand(o));
}

/** The commands that read results: compare, conformance, render. */
function addReportCommands(program: Command): void {
  program
    .command("compare")
    .description("compare two results folders of one report kind: byte changes with their causes, timing changes with their significance")
    .argument("<base>", "results folder before (e.g. of the base commit)")
    .argument("<head>", "results folder after")
    .option("--only <glob>", "compare only configurations whose id matches (repeatable)", collect, [])
    .option("--format <format>", "text, md or json", "text")
    .option("--fail-on <rule>", "exit 2 when a change trips RULE, e.g. total_bytes>0 or cpu_per_request_us>+10% (repeatable)", collect, [])
    .action(async (base: string, head: string, o: import("./commands/compare.js").CompareCommandOptions) =>
      (await import("./commands/compare.js")).compareCommand(base, head, o),
    );

  program
    .command("conformance")
    .description(
      "run the official MCP conformance suite against each MCP target's HTTP server and write its verdicts into the results folder (conformance.tsv)",
    )
    .argument("[matrix]", "matrix file naming the targets", "matrix.yaml")
    .option("--target <name>", "a target to test (repeatable; default: every target with an http command)", collect, [])
    .option("--results <dir>", "results folder of the matrix's wire report", "results")
    .action(async (matrix: string, o: import("./commands/conformance.js").ConformanceCommandOptions) =>
      (await import("./commands/conformance.js")).conformanceCommand(matrix, o),
    );

  program
    .command("render")
    .description("render the site from a results folder (runs nothing)")
    .option("--results <dir>", "results folder", "results")
    .option("--site <dir>", "site folder", "site")
    .option("--predictions <file>", "predictions file (default: predictions.yaml beside the results folder)")
    .action(async (o: { results: string; site: string; predictions?: string }) => {
      const { render, indexNote } = await import("../generators/render.js");
      const { counted } = await import("../format/plural.js");
      const report = await render({ results: o.results, site: o.site, predictions: o.predictions });
      const removed = report.removed.length ? `; removed ${counted(report.removed.length, "file")} an earlier render wrote and this one does not` : "";
      process.stderr.write(`wrote ${counted(report.files.length, "file")} to ${o.site}/${removed}\n`);
      for (const name of report.kept)
        process.stderr.write(
          `note: kept ${o.site}/${name}: an earlier render wrote it and this one does not, but it changed since — delete it if it is not yours\n`,
        );
      if (report.indexOf !== undefined) process.stderr.write(`note: ${indexNote(o.site, report.indexOf)}\n`);
    });
}
