/**
 * The per-call harness protocol (README "Per-call harnesses in other languages"): a target that
 * declares `harness:` is a measurement command in another language that times one path itself —
 * a direct call inside its own runtime, or a call through its own SDK's client — and prints the
 * samples. wirecost runs it once per trial (interleaved with the other paths), validates what it
 * printed and keeps the samples; percentiles are computed here as for every other path.
 *
 * Input: the command's argv/env from the matrix, run from the matrix folder, with the environment
 * variables of {@link harnessEnv} and every axis as `WIRECOST_<AXIS>`; stdin is closed.
 * Output: ONE JSON object on stdout matching {@link HARNESS_OUTPUT_SCHEMA} ({@link HarnessOutput}),
 * exit status 0. Anything else — a non-zero exit, no exit within the matrix's `timeoutSeconds`,
 * output that is not that object, a sample count other than WIRECOST_CALLS, a result of another
 * size than the workload's, a negotiated revision other than the configuration's — is a
 * {@link HarnessFailure} with a one-line reason (with an excerpt of the harness's stderr).
 * Profile window (the profiled trial, runner/percall/profiled.ts): with `WIRECOST_PROFILE_WINDOW=<folder>`
 * set, the harness reports its pids in `<folder>/ready.json`, waits for `<folder>/go`, times its
 * calls, writes `<folder>/end.json` (the window's wall time) and waits for `<folder>/release`
 * (README "Per-call harnesses in other languages"); the protocol version stays 1 (the window is optional).
 */
import { Ajv, type ErrorObject } from "ajv";
import { HISTOGRAM_MAX_NS } from "../measure/histogram.js";
import { startTarget } from "../targets/process.js";
import type { TargetCommand } from "../matrix/types.js";

/** The protocol version a harness writes as `wirecostHarness`. */
export const HARNESS_PROTOCOL = 1;

/** Most bytes of stdout kept from one harness run (1,000 samples are about 12 KB). */
export const HARNESS_STDOUT_LIMIT = 32 * 1024 * 1024;

/** Setup phases of the harness's own session, milliseconds from before it started the server (as runner/percall/client.ts SetupTiming). */
export interface HarnessSetup {
  readyMs: number;
  openMs: number;
  listedMs: number;
  firstCallMs: number;
}

/** What a harness prints: one JSON object (validated by {@link HARNESS_OUTPUT_SCHEMA}). */
export interface HarnessOutput {
  /** Protocol version: {@link HARNESS_PROTOCOL}. */
  wirecostHarness: 1;
  /** One entry per timed call, in call order: microseconds, finite, > 0; exactly WIRECOST_CALLS of them. */
  samplesUs: number[];
  /** UTF-8 bytes of one call's result text (direct: the rows serialised as the tools serialise them). */
  resultBytes: number;
  /** Setup of the harness's session, when it opens one (not for an in-process path). */
  setup?: HarnessSetup;
  /** The runtime the harness ran in, e.g. `{name: "python", version: "3.11.7"}`. */
  runtime: { name: string; version: string };
  /** The client SDK the harness called through, e.g. `{name: "mcp", version: "2.2.0"}` (none for an in-process path). */
  sdk?: { name: string; version: string };
  /** The protocol revision the session negotiated; checked against the configuration's revision when given. */
  protocolVersion?: string;
  /**
   * CPU time (user + system) of the harness's own process per timed call, microseconds: its
   * process CPU clock before and after the timed calls, the difference ÷ WIRECOST_CALLS (a server it
   * started is another process and not in it). Optional; the row's CPU per call is empty without it.
   */
  cpuPerCallUs?: number;
  /**
   * The 40-call loops, when asked (WIRECOST_LOOP_IDS, WIRECOST_LOOP_REPEATS): one entry per repeat
   * after a first, discarded one, exactly WIRECOST_LOOP_REPEATS of them, milliseconds: `get_tickets`
   * of each id one at a time (sequential), all of them at once on the one session (concurrent), and
   * once with every id (batch). Optional; the row's loop cells say "not measured" without it.
   */
  loops?: { sequentialMs: number; concurrentMs: number; batchMs: number }[];
  /**
   * The payload sweep, when asked (WIRECOST_PAYLOAD_LIMITS, WIRECOST_PAYLOAD_CALLS): per limit, in
   * the order asked, the bytes of that call's result text and WIRECOST_PAYLOAD_CALLS timed calls,
   * microseconds (after one discarded call). Optional.
   */
  payload?: { limit: number; resultBytes: number; samplesUs: number[] }[];
}

const nameVersion = {
  type: "object",
  additionalProperties: false,
  required: ["name", "version"],
  properties: { name: { type: "string", minLength: 1 }, version: { type: "string", minLength: 1 } },
} as const;
const ms = { type: "number", minimum: 0 } as const;

/** The largest sample a harness may print, µs: what a timing histogram holds (runner/measure/histogram.ts). */
const MAX_SAMPLE_US = HISTOGRAM_MAX_NS / 1e3;

/** JSON Schema (draft-07) of {@link HarnessOutput}. A sample above {@link MAX_SAMPLE_US} is out of the histogram's range. */
export const HARNESS_OUTPUT_SCHEMA = {
  $schema: "http://json-schema.org/draft-07/schema#",
  title: "wirecost per-call harness output",
  type: "object",
  additionalProperties: false,
  required: ["wirecostHarness", "samplesUs", "resultBytes", "runtime"],
  properties: {
    wirecostHarness: { const: HARNESS_PROTOCOL },
    samplesUs: { type: "array", items: { type: "number", exclusiveMinimum: 0, maximum: MAX_SAMPLE_US } },
    resultBytes: { type: "integer", minimum: 1 },
    setup: {
      type: "object",
      additionalProperties: false,
      required: ["readyMs", "openMs", "listedMs", "firstCallMs"],
      properties: { readyMs: ms, openMs: ms, listedMs: ms, firstCallMs: ms },
    },
    runtime: nameVersion,
    sdk: nameVersion,
    protocolVersion: { type: "string", minLength: 1 },
    cpuPerCallUs: { type: "number", minimum: 0 },
    loops: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["sequentialMs", "concurrentMs", "batchMs"],
        properties: { sequentialMs: ms, concurrentMs: ms, batchMs: ms },
      },
    },
    payload: {
      type: "array",
      items: {
        type: "object",
        additionalProperties: false,
        required: ["limit", "resultBytes", "samplesUs"],
        properties: {
          limit: { type: "integer", minimum: 1 },
          resultBytes: { type: "integer", minimum: 1 },
          samplesUs: { type: "array", items: { type: "number", exclusiveMinimum: 0, maximum: MAX_SAMPLE_US } },
        },
      },
    },
  },
} as const;

/** A harness run that gave no valid samples; `message` is the one-line reason. */
export class HarnessFailure extends Error {}

let validator: ReturnType<Ajv["compile"]> | undefined;

function schemaError(e: ErrorObject): string {
  const at = e.instancePath || "the object";
  if (e.keyword === "additionalProperties") return `${at} has unknown key "${String(e.params.additionalProperty)}"`;
  return `${at} ${e.message ?? "is invalid"}`;
}

/**
 * The one-line reason when a schema error is a sample over {@link MAX_SAMPLE_US}: a call that
 * really took that long (the measured path stalled), not a malformed output; undefined otherwise.
 */
function stalledCall(e: ErrorObject): string | undefined {
  const m = /^(?:\/payload\/(\d+))?\/samplesUs\/(\d+)$/.exec(e.instancePath);
  if (!m || e.keyword !== "maximum") return undefined;
  const where = m[1] === undefined ? "" : ` of payload entry ${Number(m[1]) + 1}`;
  return `call ${Number(m[2]) + 1}${where} took over ${MAX_SAMPLE_US / 1e6} s (${e.instancePath}): the path stalled that long, beyond the ${MAX_SAMPLE_US / 1e6} s a timing histogram holds`;
}

/** At most `n` characters of `s` on one line. */
const oneLine = (s: string, n: number): string => {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
};

/** What the output must agree with. */
export interface HarnessExpect {
  /** WIRECOST_CALLS: the number of samples. */
  calls: number;
  /** Bytes of the measured call's result text as the workload gives it (runner/percall/engine.ts callResultBytes). */
  resultBytes: number;
  /** The configuration's revision ("none" for an in-process path: not checked). */
  revision: string;
  /** Loop repeats asked (WIRECOST_LOOP_REPEATS); absent: none asked, and `loops` must be absent. */
  loopRepeats?: number;
  /** The payload sweep asked: calls per limit, and each limit's result bytes as the workload gives them (in the order asked); absent: none asked. */
  payload?: { calls: number; bytes: { limit: number; resultBytes: number }[] };
}

/**
 * Parse and check what a harness printed on stdout.
 * @returns the output, samples in call order
 * @throws HarnessFailure naming what is wrong: not one JSON object, a schema violation (JSON
 *   pointer and rule: a sample not a finite number > 0, an unknown key, …), a sample count other than `calls`, a result size other
 *   than `resultBytes`, or a negotiated revision other than `revision`
 */
export function parseHarnessOutput(stdout: string, expect: HarnessExpect): HarnessOutput {
  const text = stdout.trim();
  if (text === "") throw new HarnessFailure('printed nothing on stdout — it must print one JSON object (README "Per-call harnesses in other languages")');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    const why = text.startsWith("{") ? `: ${oneLine((e as Error).message, 120)}` : "";
    throw new HarnessFailure(
      `printed no JSON object on stdout (it begins ${JSON.stringify(oneLine(text, 40))}${why}) — print exactly one JSON object, logs to stderr`,
    );
  }
  validator ??= new Ajv({ allErrors: false, strict: true }).compile(HARNESS_OUTPUT_SCHEMA);
  if (!validator(data)) {
    const stall = stalledCall(validator.errors![0]!);
    if (stall) throw new HarnessFailure(stall);
    throw new HarnessFailure(
      `printed an object that is not harness output: ${schemaError(validator.errors![0]!)} (see HARNESS_OUTPUT_SCHEMA in runner/percall/harness.ts)`,
    );
  }
  const out = data as HarnessOutput; // Ajv's "number" is finite: 1e999 (JSON.parse: Infinity) fails it
  if (out.samplesUs.length !== expect.calls)
    throw new HarnessFailure(`printed ${out.samplesUs.length} samples for WIRECOST_CALLS=${expect.calls} — time exactly WIRECOST_CALLS calls`);
  if (out.resultBytes !== expect.resultBytes)
    throw new HarnessFailure(
      `its result is ${out.resultBytes} bytes, the workload's is ${expect.resultBytes} bytes for this query and limit — the harness did other work than the other paths (check WIRECOST_TICKETS_DB, WIRECOST_QUERY, WIRECOST_LIMIT)`,
    );
  if (out.protocolVersion !== undefined && expect.revision !== "none" && out.protocolVersion !== expect.revision)
    throw new HarnessFailure(
      `its session negotiated ${out.protocolVersion}, the configuration's revision is ${expect.revision} — open the session at WIRECOST_REVISION`,
    );
  checkLoops(out, expect);
  checkPayload(out, expect);
  return out;
}

/** The loops part of the output against what was asked. @throws HarnessFailure */
function checkLoops(out: HarnessOutput, expect: HarnessExpect): void {
  if (out.loops === undefined) return;
  if (expect.loopRepeats === undefined) throw new HarnessFailure("printed loops that were not asked for (no WIRECOST_LOOP_IDS) — print them only when asked");
  if (out.loops.length !== expect.loopRepeats)
    throw new HarnessFailure(
      `printed ${out.loops.length} loop repeats for WIRECOST_LOOP_REPEATS=${expect.loopRepeats} — one entry per repeat, the first discarded one left out`,
    );
}

/** The payload part of the output against what was asked. @throws HarnessFailure */
function checkPayload(out: HarnessOutput, expect: HarnessExpect): void {
  if (out.payload === undefined) return;
  const asked = expect.payload;
  if (asked === undefined) throw new HarnessFailure("printed a payload sweep that was not asked for (no WIRECOST_PAYLOAD_LIMITS) — print it only when asked");
  const limits = out.payload.map((p) => p.limit).join(",");
  const want = asked.bytes.map((b) => b.limit).join(",");
  if (limits !== want)
    throw new HarnessFailure(`printed payload limits ${limits || "none"} for WIRECOST_PAYLOAD_LIMITS=${want} — one entry per limit, in that order`);
  out.payload.forEach((p, i) => {
    if (p.samplesUs.length !== asked.calls)
      throw new HarnessFailure(`printed ${p.samplesUs.length} payload samples at limit ${p.limit} for WIRECOST_PAYLOAD_CALLS=${asked.calls}`);
    if (p.resultBytes !== asked.bytes[i]!.resultBytes)
      throw new HarnessFailure(
        `its result at limit ${p.limit} is ${p.resultBytes} bytes, the workload's is ${asked.bytes[i]!.resultBytes} bytes — the harness did other work than the other paths`,
      );
  });
}

/** The call to time and where the data is. */
export interface HarnessCall {
  /** Absolute path of the ticket database the runner created (targets/workload/tickets.ts). */
  ticketsDb: string;
  query: string;
  limit: number;
  calls: number;
  warmupCalls: number;
  /** The loops to run: the ids of `get_tickets` (40 for the report) and the repeats kept; absent: none. */
  loops?: { ids: number[]; repeats: number };
  /** The payload sweep to run: limits of `search_tickets` and timed calls per limit; absent: none. */
  payload?: { limits: number[]; calls: number };
}

/** The protocol's environment variables (axes come on top, as `WIRECOST_<AXIS>`). */
export function harnessEnv(c: HarnessCall): Record<string, string> {
  return {
    WIRECOST_TICKETS_DB: c.ticketsDb,
    WIRECOST_QUERY: c.query,
    WIRECOST_LIMIT: String(c.limit),
    WIRECOST_CALLS: String(c.calls),
    WIRECOST_WARMUP_CALLS: String(c.warmupCalls),
    ...(c.loops && c.loops.ids.length > 0 ? { WIRECOST_LOOP_IDS: c.loops.ids.join(","), WIRECOST_LOOP_REPEATS: String(c.loops.repeats) } : {}),
    ...(c.payload && c.payload.limits.length > 0
      ? { WIRECOST_PAYLOAD_LIMITS: c.payload.limits.join(","), WIRECOST_PAYLOAD_CALLS: String(c.payload.calls) }
      : {}),
  };
}

/** How to run one harness trial. */
export interface HarnessSpec {
  /** The target's `harness:` command (`{build}` already substituted). */
  command: TargetCommand;
  /** Axis values of the configuration (substituted, and in the environment as `WIRECOST_<AXIS>`). */
  values: Record<string, string>;
  /** The matrix file's folder. */
  cwd: string;
  /** Limit of the whole run (start to exit), milliseconds: the matrix's `timeoutSeconds`. */
  timeoutMs: number;
  call: HarnessCall;
  expect: HarnessExpect;
  /** Extra environment (literal values), e.g. WIRECOST_PROFILE_WINDOW for the profiled trial. */
  env?: Record<string, string>;
}

/** A literal for a command's argv item or env value: braces doubled so placeholder substitution leaves it as is. */
export const literal = (s: string): string => s.replaceAll("{", "{{").replaceAll("}", "}}");

/**
 * Run the harness once and read its samples.
 * @returns the validated output, or `{ reason }`: one line saying why this run gave no samples
 *   (exit status or timeout with a stderr excerpt, or what was wrong with the output)
 */
export async function runHarness(spec: HarnessSpec): Promise<{ output: HarnessOutput } | { reason: string }> {
  const env = { ...spec.command.env, ...Object.fromEntries(Object.entries({ ...harnessEnv(spec.call), ...spec.env }).map(([k, v]) => [k, literal(v)])) };
  const proc = startTarget({ argv: spec.command.argv, env }, spec.values, spec.cwd);
  const child = proc.child;
  child.stdin?.on("error", () => {});
  child.stdin?.end();
  const chunks: Buffer[] = [];
  let bytes = 0;
  let overflow = false;
  child.stdout?.on("data", (d: Buffer) => {
    bytes += d.length;
    if (bytes > HARNESS_STDOUT_LIMIT) overflow = true;
    else chunks.push(d);
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    void proc.stop(1000);
  }, spec.timeoutMs);
  await child;
  clearTimeout(timer);
  await proc.stop(1000); // anything the harness left in its process group (a server it started)
  const stderr = proc.stderrExcerpt();
  const tail = stderr ? `: ${stderr}` : " (no stderr)";
  if (timedOut) return { reason: `did not finish within ${spec.timeoutMs / 1000} s (timeoutSeconds)${tail}` };
  const spawnError = proc.spawnError();
  if (spawnError) return { reason: `could not start: ${spawnError} — fix harness.argv` };
  const exit = proc.exit();
  if (exit !== "0") return { reason: `exited ${/^\d+$/.test(exit ?? "") ? exit : `on ${exit}`}${tail}` };
  if (overflow) return { reason: `printed more than ${HARNESS_STDOUT_LIMIT} bytes on stdout — print one JSON object, logs to stderr` };
  try {
    return { output: parseHarnessOutput(Buffer.concat(chunks).toString("utf8"), spec.expect) };
  } catch (e) {
    if (e instanceof HarnessFailure) return { reason: e.message };
    throw e;
  }
}
