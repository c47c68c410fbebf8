/**
 * Every A2A target serves its agent card at `GET /.well-known/agent-card.json` (A2A 1.0, "Agent
 * Discovery"), checked through the real target processes the A2A matrices start: HTTP 200, a JSON
 * content type, and the members an A2A 1.0 `AgentCard` requires (name, description, version,
 * supportedInterfaces with url, protocolBinding and protocolVersion, capabilities,
 * defaultInputModes, defaultOutputModes, skills), with the stricter checks of the A2A TCK's
 * mandatory card tests (tests/mandatory/protocol/test_agent_card_mandatory.py: non-empty strings,
 * non-empty mode strings, a non-empty skills list, each skill with id, name, description and tags).
 * Then the wire flow that fetches the card before `SendMessage` (`matrices/a2a-on-the-wire.yaml`,
 * flows `a2a-card` and `a2a-send`) is run and counted: one more round trip, and for the floor,
 * whose card is a constant, exactly the card's bytes more response body; and for every target, its
 * counts against its capture log as this test reads it (heads, bodies by Content-Length, total).
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { ensureBuilt } from "../../runner/build/build.js";
import { missingToolchain } from "../../runner/build/toolchain.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { freePort, startTarget, waitForPort } from "../../runner/targets/process.js";
import { cli, root } from "../paths.js";
import { tempDir } from "../generators/support.js";

const MATRIX = "matrices/a2a-on-the-wire.yaml";
const matrix = loadMatrix(join(root, MATRIX));

/** Why a target cannot be built here (skipped with the reason), except under CI=true, where it is required. */
function skipUnless(name: string): string | false {
  if (!matrix.targets[name]?.build) return false;
  const missing = missingToolchain(matrix.targets[name]!, dirname(matrix.file));
  return missing && process.env.CI !== "true" ? `${missing} (CI=true requires it)` : false;
}

const nonEmptyString = (v: unknown, where: string): void =>
  assert.ok(typeof v === "string" && v.trim() !== "", `${where}: a non-empty string, got ${JSON.stringify(v)}`);

/**
 * Check an agent card against A2A 1.0's required members and the TCK's mandatory card checks.
 * @throws AssertionError naming the first member at fault
 */
function checkCard(card: Record<string, unknown>, port: number): void {
  for (const k of ["name", "description", "version"]) nonEmptyString(card[k], k);
  const interfaces = card["supportedInterfaces"];
  assert.ok(Array.isArray(interfaces) && interfaces.length > 0, "supportedInterfaces: a non-empty list");
  for (const [i, x] of (interfaces as Record<string, unknown>[]).entries()) {
    for (const k of ["url", "protocolBinding", "protocolVersion"]) nonEmptyString(x[k], `supportedInterfaces[${i}].${k}`);
    assert.match(String(x["url"]), /^http:\/\/127\.0\.0\.1(:\d+)?\//, `supportedInterfaces[${i}].url on loopback`);
    if (String(x["url"]).includes(":") && /:\d+\//.test(String(x["url"])))
      assert.ok(String(x["url"]).includes(`:${port}/`), `supportedInterfaces[${i}].url names the port`);
  }
  assert.ok(typeof card["capabilities"] === "object" && card["capabilities"] !== null && !Array.isArray(card["capabilities"]), "capabilities: an object");
  for (const k of ["defaultInputModes", "defaultOutputModes"]) {
    const modes = card[k];
    assert.ok(Array.isArray(modes), `${k}: a list`);
    for (const [i, m] of (modes as unknown[]).entries()) nonEmptyString(m, `${k}[${i}]`);
  }
  const skills = card["skills"];
  assert.ok(Array.isArray(skills) && skills.length > 0, "skills: a non-empty list");
  for (const [i, s] of (skills as Record<string, unknown>[]).entries()) {
    for (const k of ["id", "name", "description"]) nonEmptyString(s[k], `skills[${i}].${k}`);
    assert.ok(Array.isArray(s["tags"]), `skills[${i}].tags: a list`);
  }
}

for (const name of Object.keys(matrix.targets)) {
  test(`${name} serves an A2A 1.0 agent card at GET /.well-known/agent-card.json`, { timeout: 900_000, skip: skipUnless(name) }, async () => {
    if (matrix.targets[name]!.build) await ensureBuilt(matrix, [name]);
    const port = await freePort();
    const proc = startTarget(matrix.targets[name]!.commands.http!, { target: name, port: String(port) }, dirname(matrix.file));
    try {
      await waitForPort(port, 60_000, () => proc.exit() === undefined);
      const res = await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`);
      assert.equal(res.status, 200, `${name}: HTTP ${res.status}`);
      assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
      checkCard((await res.json()) as Record<string, unknown>, port);
    } finally {
      await proc.stop();
    }
  });
}

test("the wire flow a2a-card counts the card's bytes: one more round trip than a2a-send, and for the floor exactly its card's bytes more body", {
  timeout: 120_000,
}, async () => {
  const results = join(tempDir("a2a-card"), "results");
  const run = await execa(process.execPath, [cli, "run", MATRIX, "--only", "floor-*", "--only", "a2a-js-*", "--repeats", "2", "--results", results], {
    cwd: root,
    reject: false,
  });
  assert.equal(run.exitCode, 0, run.stderr);
  const medians = new Map<string, number>();
  for (const line of readFileSync(join(results, "medians.tsv"), "utf8").trim().split("\n").slice(1)) {
    const [config, metric, , median] = line.split("\t");
    medians.set(`${config} ${metric}`, Number(median));
  }
  const m = (config: string, metric: string): number => {
    const v = medians.get(`${config} ${metric}`);
    assert.ok(v !== undefined, `${config} ${metric} in medians.tsv`);
    return v;
  };
  for (const t of ["floor", "a2a-js"]) {
    assert.equal(m(`${t}-a2a-send`, "http_round_trips"), 1);
    assert.equal(m(`${t}-a2a-card`, "http_round_trips"), 2);
    // The GET carries no body: the request bodies are the one SendMessage in both flows.
    assert.equal(m(`${t}-a2a-card`, "request_body_bytes"), m(`${t}-a2a-send`, "request_body_bytes"));
    assert.ok(m(`${t}-a2a-card`, "response_body_bytes") > m(`${t}-a2a-send`, "response_body_bytes"));
  }
  // The floor's card, fetched from a floor process of its own (a constant, so the same bytes as in the runs).
  const port = await freePort();
  const floor = startTarget(matrix.targets["floor"]!.commands.http!, { target: "floor", port: String(port) }, dirname(matrix.file));
  let cardBytes = 0;
  try {
    await waitForPort(port, 60_000, () => floor.exit() === undefined);
    cardBytes = (await (await fetch(`http://127.0.0.1:${port}/.well-known/agent-card.json`)).arrayBuffer()).byteLength;
  } finally {
    await floor.stop();
  }
  assert.ok(cardBytes > 0);
  assert.equal(m("floor-a2a-card", "response_body_bytes") - m("floor-a2a-send", "response_body_bytes"), cardBytes);
});

/** The bytes of one capture log per connection and direction, in `seq` order (ARCHITECTURE.md, Capture-log format). */
function logStreams(file: string): Map<number, { c2s: Buffer; s2c: Buffer }> {
  const lines = readFileSync(file, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as { conn?: number; seq: number; dir: "c2s" | "s2c"; b64?: string });
  const out = new Map<number, { c2s: Buffer; s2c: Buffer }>();
  for (const e of lines.sort((a, b) => a.seq - b.seq)) {
    if (e.b64 === undefined) continue;
    const s = out.get(e.conn ?? 0) ?? { c2s: Buffer.alloc(0), s2c: Buffer.alloc(0) };
    s[e.dir] = Buffer.concat([s[e.dir], Buffer.from(e.b64, "base64")]);
    out.set(e.conn ?? 0, s);
  }
  return out;
}

/**
 * The HTTP/1.1 messages of one direction's bytes, framed by Content-Length (or none: no body), as
 * this test's own reading of the log, apart from wirecost's counting.
 * @throws AssertionError on a chunked message or a head without its end
 */
function httpMessages(bytes: Buffer): { startLine: string; headBytes: number; body: Buffer }[] {
  const out: { startLine: string; headBytes: number; body: Buffer }[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = bytes.indexOf("\r\n\r\n", at);
    assert.ok(end >= 0, `an HTTP head ends at ${at}`);
    const head = bytes.subarray(at, end).toString("latin1");
    assert.doesNotMatch(head, /^transfer-encoding:\s*chunked/im, "Content-Length framing");
    const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
    out.push({ startLine: head.split("\r\n")[0]!, headBytes: end + 4 - at, body: bytes.subarray(end + 4, end + 4 + length) });
    at = end + 4 + length;
  }
  return out;
}

test("the wire flow a2a-card of every A2A target counts exact bytes, checked against its capture log: the card's response head and body, then SendMessage", {
  timeout: 900_000,
}, async () => {
  const targets = Object.keys(matrix.targets).filter((t) => skipUnless(t) === false);
  const results = join(tempDir("a2a-card-log"), "results");
  const run = await execa(
    process.execPath,
    [cli, "run", MATRIX, ...targets.flatMap((t) => ["--only", `${t}-a2a-card`]), "--repeats", "1", "--results", results],
    {
      cwd: root,
      reject: false,
    },
  );
  assert.equal(run.exitCode, 0, run.stderr);
  const [head = "", ...rows] = readFileSync(join(results, "runs.tsv"), "utf8").trim().split("\n");
  const runRows = rows.map((r) => Object.fromEntries(r.split("\t").map((v, i) => [head.split("\t")[i], v])));
  for (const t of targets) {
    const config = `${t}-a2a-card`;
    const counted = runRows.find((r) => r["config"] === config && r["repeat"] === "1");
    assert.ok(counted && counted["status"] === "ok", `${config}: an ok run in runs.tsv`);
    const n = (k: string): number => Number(counted[k]);
    const conns = [...logStreams(join(results, "logs", config, "1.jsonl")).values()];
    const requests = conns.flatMap((c) => httpMessages(c.c2s));
    const responses = conns.flatMap((c) => httpMessages(c.s2c));
    assert.deepEqual(
      requests.map((m) => m.startLine),
      ["GET /.well-known/agent-card.json HTTP/1.1", "POST / HTTP/1.1"],
      `${config}: the card, then SendMessage`,
    );
    assert.deepEqual(
      responses.map((m) => m.startLine),
      ["HTTP/1.1 200 OK", "HTTP/1.1 200 OK"],
      config,
    );
    const [card, answer] = responses as [(typeof responses)[number], (typeof responses)[number]];
    nonEmptyString((JSON.parse(card.body.toString("utf8")) as { name?: unknown }).name, `${config}: the card's name`);
    assert.equal((JSON.parse(answer.body.toString("utf8")) as { jsonrpc?: unknown }).jsonrpc, "2.0", `${config}: SendMessage answered in JSON-RPC`);
    // wirecost's counts against the log's bytes.
    assert.equal(n("http_round_trips"), 2, config);
    assert.equal(n("request_head_bytes"), requests[0]!.headBytes + requests[1]!.headBytes, `${config}: request heads`);
    assert.equal(n("request_body_bytes"), requests[1]!.body.length, `${config}: the GET has no body`);
    assert.equal(n("response_head_bytes"), card.headBytes + answer.headBytes, `${config}: response heads`);
    assert.equal(n("response_body_bytes"), card.body.length + answer.body.length, `${config}: the card's body and the answer's`);
    const logBytes = conns.reduce((a, c) => a + c.c2s.length + c.s2c.length, 0);
    assert.equal(n("total_bytes"), logBytes, `${config}: every byte of the log`);
    // The per-message table gives the card's response its own row with the same bytes.
    const [mh = "", ...mrows] = readFileSync(join(results, "logs", config, "1.messages.tsv"), "utf8")
      .trim()
      .split("\n");
    const cardRow = mrows
      .map((r) => Object.fromEntries(r.split("\t").map((v, i) => [mh.split("\t")[i], v])))
      .find((r) => r["dir"] === "s2c" && r["start_line"] === "HTTP/1.1 200 OK");
    assert.ok(cardRow, `${config}: the card's response in messages.tsv`);
    assert.equal(Number(cardRow["head_bytes"]), card.headBytes, `${config}: the card's response head`);
    assert.equal(Number(cardRow["body_bytes"]), card.body.length, `${config}: the card's body`);
  }
});

test("a target that serves no agent card fails the a2a-card flow, the run's reason naming the card", { timeout: 60_000 }, async () => {
  const results = join(tempDir("a2a-card-missing"), "results");
  const run = await execa(process.execPath, [cli, "run", "test/fixtures/matrices/a2a-card-missing.yaml", "--results", results], { cwd: root, reject: false });
  assert.equal(run.exitCode, 1, run.stderr);
  const [head = "", row = ""] = readFileSync(join(results, "runs.tsv"), "utf8").trim().split("\n");
  const cells = Object.fromEntries(row.split("\t").map((v, i) => [head.split("\t")[i], v]));
  assert.equal(cells["status"], "failed");
  assert.match(cells["error"] ?? "", /^agent card: no string "name" in \{"jsonrpc":"2\.0"/);
});
