/**
 * `revisions: auto` (README "The revision a server answers"): which revisions a target speaks,
 * found by asking it. For each revision of the matrix's `revision` axis that the raw driver
 * speaks, and each transport of the `transport` axis the target has a command for, the target is
 * started once and the raw driver opens a session the revision's way and lists its tools; the
 * answers are checked as every run checks them (`revisionMismatch`, runner/drivers/mcp/revision.ts).
 * A revision is kept when some such transport speaks it; a transport that does not is left out of
 * that revision by an exclude rule with the line that says why (the other transport's runs go on),
 * and a revision no transport speaks is skipped with the lines. Nothing is captured: a probe is
 * not a run. A target's probes (each revision over each transport: independent processes) run
 * side by side, at most {@link PROBE_JOBS} at once, each waiting at most the probe timeout
 * (`probeTimeoutMs`: `wirecost measure --probe-timeout`, default 10 s; `wirecost run`: the matrix's
 * `timeoutSeconds`), and each prints one progress line when it ends ("probing 2025-11-25 over
 * stdio… no answer after 10 s"), so a server that never answers costs one probe timeout, said.
 */
import { PipelinedHttpWire, PipelinedStdioWire } from "../drivers/mcp/pipelined.js";
import { McpSession } from "../drivers/mcp/session.js";
import { hasStreamableHttp, noStreamableHttp } from "../drivers/mcp/revision.js";
import { RAW_CLIENT } from "../drivers/declarations.js";
import { checkLoopbackOnly } from "../targets/binds.js";
import { terminalLine } from "../../format/markdown.js";
import { freePort, startTarget, waitForPort } from "../targets/process.js";
import { spawnTarget, stopTarget } from "../percall/client.js";
import { dirname } from "node:path";
import { listAll } from "../drivers/mcp/flows.js";
import { ensureBuilt } from "../build/build.js";
import type { Matrix, Target } from "../matrix/types.js";
import { UserError } from "../../format/errors.js";
import { Interrupted } from "../errors.js";
import { INTERRUPT_GRACE_MS } from "./run-one.js";

/** What the probe found for one target. */
export interface RevisionProbe {
  target: string;
  /** Revisions it speaks on some probed transport, in the axis' order. */
  spoken: string[];
  /** Revisions or transports of a revision skipped, each with why: `transport: the failure line` per transport that failed. */
  skipped: { revision: string; why: string; transports: string[]; whole: boolean }[];
}

/**
 * Ask one target one revision over one transport.
 * @returns undefined when it answered in that revision, else the one line saying what happened
 * @throws UserError when the target declares a `tool:` its tools/list answer does not hold (every
 *   run would fail on it)
 */
/** Probes of one target run side by side, at most this many at once. */
export const PROBE_JOBS = 4;

/**
 * Run `jobs` side by side, at most `limit` at once; results in the order of `jobs`. Every job
 * ends before the first error is thrown (a probe's target is stopped before the command exits).
 */
async function limited<T>(jobs: readonly (() => Promise<T>)[], limit: number): Promise<T[]> {
  const out: T[] = new Array(jobs.length);
  const errors: unknown[] = [];
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < jobs.length; i = next++) {
      try {
        out[i] = await jobs[i]!();
      } catch (e) {
        errors.push(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, jobs.length) }, worker));
  if (errors.length) throw errors[0];
  return out;
}

/** `10 s`, `1.5 s`: a timeout in milliseconds as the progress lines say it. */
const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Require the target's declared `tool:` among the tools it lists (every page of tools/list: a tool
 * on the second page is a tool the server has).
 * @throws UserError naming the target, the tool, the revision and transport, and the tools it lists
 */
async function checkToolListed(session: McpSession, target: Target, revision: string, transport: string): Promise<void> {
  const pages = await listAll(session, "tools/list");
  const tools = pages.every((p) => Array.isArray(p.tools)) ? pages.flatMap((p) => p.tools as { name?: unknown }[]) : undefined;
  const names = Array.isArray(tools) ? tools.map((t) => String(t?.name)) : [];
  if (target.tool && Array.isArray(tools) && !names.includes(target.tool.name))
    throw new UserError(
      `target ${target.name}: it lists no tool ${JSON.stringify(target.tool.name)} (${revision}, ${transport}); its tools: ${names.join(", ") || "none"} — name one of them (tool: in the matrix, --tool for wirecost measure)`,
    );
}

/**
 * Why a probe failed, one line: the error's first line, a wait that ran out said as the probe's
 * own timeout (the one the user can raise), and beside it what the target wrote on stdout that is
 * not JSON-RPC, how it exited, and its stderr.
 */
function probeFailure(e: Error, timeoutMs: number, proc: ProbeProcess | undefined, stray: PipelinedStdioWire["stray"] | undefined): string {
  const first = e.message.split("\n")[0]!.replace(/:\s*$/, "").replace(/\s+/g, " ");
  const message = first
    .replace(/^(.+?)(?: \(id [^)]*\))?: no answer within \d+ ms$/, (_, what: string) => `no answer to ${what} after ${seconds(timeoutMs)}`)
    .replace(/^target did not listen on (\S+) within \d+ ms$/, (_, where: string) => `not listening on ${where} after ${seconds(timeoutMs)}`);
  const stderr = proc?.stderrExcerpt() ?? "";
  const exited = proc?.exit() !== undefined && !/target exited/.test(message) ? `target exited: ${proc?.exit()}` : "";
  const junk = stray?.lines
    ? `it wrote ${stray.lines === 1 ? "1 line" : `${stray.lines} lines`} on stdout that ${stray.lines === 1 ? "is" : "are"} not JSON-RPC, the first: ${JSON.stringify(terminalLine(stray.first))}`
    : "";
  const extra = [junk, exited, stderr && !message.includes(stderr) ? `stderr: ${stderr}` : ""].filter(Boolean).join(" | ");
  return extra ? `${message} (${extra})` : message;
}

/** The probed target's process, however it was started. */
type ProbeProcess = Awaited<ReturnType<typeof spawnTarget>>["proc"];

/**
 * Ask one target whether it speaks `revision` over `transport`: start it (an HTTP target on a free
 * loopback port, checked to listen on loopback only), open a session the revision's way, list its
 * tools (its declared `tool:` must be among them), stop it. ^C (`signal`) ends the probe at once.
 * @param timeoutMs how long each wait may take (start-up, each answer)
 * @returns undefined when it speaks the revision there; else why not, in one line
 * @throws UserError when the target lists no tool of its declared `tool:` name
 */
export async function probeRevision(
  target: Target,
  transport: "stdio" | "http",
  revision: string,
  cwd: string,
  timeoutMs: number,
  path = "/mcp",
  signal?: AbortSignal,
): Promise<string | undefined> {
  const command = target.commands[transport];
  if (!command) return `no ${transport} command`;
  if (transport === "http" && !hasStreamableHttp(revision)) return noStreamableHttp(revision);
  const values = { target: target.name, transport, revision };
  let stdio: Awaited<ReturnType<typeof spawnTarget>> | undefined;
  let proc: Awaited<ReturnType<typeof spawnTarget>>["proc"] | undefined;
  let http: PipelinedHttpWire | undefined;
  let stdioWire: PipelinedStdioWire | undefined;
  // ^C: the probe ends at once, its target stopped (the run says what was interrupted).
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(new Interrupted("interrupted while asking the target its revisions"));
    if (signal?.aborted) onAbort();
    else signal?.addEventListener("abort", onAbort, { once: true });
  });
  aborted.catch(() => undefined);
  let work: Promise<void> | undefined;
  try {
    work = (async () => {
      let session: McpSession;
      if (transport === "stdio") {
        stdio = await spawnTarget({ command, values, transport, revision, cwd, timeoutMs }, 0);
        proc = stdio.proc;
        const wire = new PipelinedStdioWire(proc.child.stdin!, proc.child.stdout!, timeoutMs);
        stdioWire = wire;
        void stdio.exited.then((e) => wire.failAll(e));
        session = new McpSession(wire, revision);
      } else {
        // As a run starts an HTTP target: ready when 127.0.0.1:PORT accepts connections (no
        // listening line needed), and listening on loopback only.
        const port = await freePort();
        const p = startTarget(command, { ...values, port: String(port) }, cwd);
        proc = p;
        p.child.stdin?.on("error", () => {});
        await waitForPort(port, timeoutMs, () => p.exit() === undefined);
        checkLoopbackOnly(port);
        http = new PipelinedHttpWire(port, path, timeoutMs);
        session = new McpSession(http, revision);
      }
      await session.open();
      await checkToolListed(session, target, revision, transport);
    })();
    work.catch(() => undefined); // after ^C it fails as its target is stopped: nobody waits for it then
    await Promise.race([aborted, work]);
    return undefined;
  } catch (e) {
    if (e instanceof UserError) throw e;
    if (e instanceof Interrupted) return e.message;
    return probeFailure(e as Error, timeoutMs, proc, stdioWire?.stray);
  } finally {
    if (onAbort) signal?.removeEventListener("abort", onAbort);
    http?.close();
    if (signal?.aborted) {
      // The user is waiting: a short grace, then the probe's own steps end as its target is gone
      // (a target it was still starting is stopped once they have).
      if (proc) await proc.stop(INTERRUPT_GRACE_MS);
      await work?.catch(() => undefined);
      if (proc) await proc.stop(INTERRUPT_GRACE_MS);
    } else if (proc) await stopTarget(proc, transport);
  }
}

/**
 * Probe every target of the matrix's `target` axis that declares `revisions: auto`, and set its
 * `revisions` to those it speaks (so expansion leaves the others out with their reason).
 * @param opts as the run's: a target with `build:` is built first (missing toolchain: refused, or
 *   skipped unprobed); `probeTimeoutMs`, how long one probe waits (default the matrix's timeout)
 * @returns what was found, per probed target (empty when none declares auto)
 * @throws UserError from the build (a missing toolchain without `skipMissingToolchains`, a failed build)
 */
export async function probeAutoRevisions(
  matrix: Matrix,
  opts: { skipMissingToolchains?: boolean; signal?: AbortSignal; probeTimeoutMs?: number } = {},
): Promise<RevisionProbe[]> {
  const axis = (name: string) => matrix.axes.find((a) => a.name === name)?.values ?? [];
  const revisions = axis("revision").filter((r) => (RAW_CLIENT.revisions as readonly string[]).includes(r));
  const transports = axis("transport").filter((t): t is "stdio" | "http" => t === "stdio" || t === "http");
  const out: RevisionProbe[] = [];
  const auto = axis("target").filter((name) => matrix.targets[name]?.revisionsAuto);
  // The HTTP endpoint's path: the `path` axis when it has one value (as the raw driver takes it), else /mcp.
  const paths = axis("path");
  const path = paths.length === 1 ? paths[0]! : "/mcp";
  const timeoutMs = opts.probeTimeoutMs ?? matrix.timeoutMs;
  // A target with build: is built first (cached: the run's own ensureBuilt finds it built).
  const built = await ensureBuilt(
    matrix,
    auto.filter((name) => matrix.targets[name]!.build),
    opts,
  );
  for (const name of auto) {
    const target = matrix.targets[name]!;
    if (built.skipped.has(name)) continue; // its runs are recorded skipped, with the toolchain's line
    const probe: RevisionProbe = { target: name, spoken: [], skipped: [] };
    const own = transports.filter((t) => target.commands[t]);
    const cells = revisions.flatMap((revision) => own.map((transport) => ({ revision, transport })));
    process.stderr.write(
      `revisions: auto: probing target ${name}: ${cells.length} ${cells.length === 1 ? "probe" : "probes"} (${revisions.join(", ")} over ${own.join(" and ")}), at most ${seconds(timeoutMs)} each, ${Math.min(PROBE_JOBS, cells.length)} at once\n`,
    );
    const answers = await limited(
      cells.map((c) => async () => {
        const started = Date.now();
        if (opts.signal?.aborted) return { ...c, why: "interrupted" };
        const why = await probeRevision(target, c.transport, c.revision, dirname(matrix.file), timeoutMs, path, opts.signal);
        if (opts.signal?.aborted) return { ...c, why: "interrupted" };
        process.stderr.write(
          `  probing ${c.revision} over ${c.transport}… ${why === undefined ? `answered in that revision (${seconds(Date.now() - started)})` : why}\n`,
        );
        return { ...c, why };
      }),
      PROBE_JOBS,
    );
    for (const revision of revisions) {
      const failures = answers.filter((a) => a.revision === revision && a.why !== undefined).map((a) => ({ transport: a.transport, why: a.why! }));
      const whole = failures.length === own.length;
      if (failures.length)
        probe.skipped.push({ revision, why: failures.map((f) => `${f.transport}: ${f.why}`).join("; "), transports: failures.map((f) => f.transport), whole });
      if (whole && failures.length) (target.revisionsSkipped ??= {})[revision] = probe.skipped.at(-1)!.why;
      if (!whole) probe.spoken.push(revision);
      // A transport that does not speak a revision another one speaks: that cell only is left out.
      if (!whole)
        for (const f of failures)
          (matrix.exclude ??= []).push({
            match: { target: [name], transport: [f.transport], revision: [revision] },
            reason: `revisions: auto: ${f.transport} does not speak ${revision}: ${f.why}`,
            label: `revisions: auto (${name} × ${f.transport} × ${revision})`,
          });
    }
    target.revisions = probe.spoken;
    out.push(probe);
  }
  return out;
}

/**
 * When a target answered every probe with revisions none of which wirecost's raw driver speaks
 * (an MCP server of 2024-11-05 or 2025-03-26, answering initialize with its own `protocolVersion`
 * as the spec lets it: MCP 2025-06-18, "Lifecycle" → "Version Negotiation"), the sentence that
 * says so, from the probes' mismatch lines (`server answered 2024-11-05 to a 2025-06-18 request`,
 * runner/drivers/mcp/revision.ts); else undefined.
 */
export function undrivenRevisions(probe: RevisionProbe): string | undefined {
  const spoken = new Set<string>();
  for (const s of probe.skipped)
    for (const part of s.why.split("; ")) {
      if (/^[a-z]+: server answered 2025-era /.test(part)) continue; // a 2025-era answer to a 2026-07-28 request: no revision named
      const got = /^[a-z]+: server answered ((?:\d{4}-\d{2}-\d{2}(?:, )?)+) to a /.exec(part)?.[1];
      if (got === undefined) return undefined;
      for (const r of got.split(", ")) spoken.add(r);
    }
  const revisions = [...spoken].sort();
  if (revisions.length === 0 || revisions.some((r) => (RAW_CLIENT.revisions as readonly string[]).includes(r))) return undefined;
  return `target ${probe.target} answered ${revisions.join(", ")} to the revisions asked`;
}

/** The lines that report a probe: one per target, then one per skipped revision. */
export function probeLines(probes: RevisionProbe[]): string[] {
  return probes.flatMap((p) => [
    `revisions: auto: target ${p.target} speaks ${p.spoken.join(", ") || "none of the matrix's revisions"}`,
    ...p.skipped.map((s) => `  skipped ${p.target} × ${s.whole ? s.revision : `${s.revision} over ${s.transports.join(" and ")}`}: ${s.why}`),
  ]);
}
