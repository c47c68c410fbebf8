/**
 * `wirecost measure` through the real CLI on wirecost's own TypeScript v1 server, over stdio and
 * Streamable HTTP in one command (`--http … -- CMD`), then on the same server already running
 * (`--url`): the revisions it speaks found by asking it, 2026-07-28 skipped with the line, one call
 * of the named tool per revision and transport, a results folder, a page, and per configuration
 * the total and the tools/list answer's bytes, checked against the run's per-message table; each
 * tool definition's bytes and tokens per transport and revision in tools.tsv (checked against the
 * answer's text), what each revision adds in tools-changes.tsv, and the catalog section on the
 * page. Bad input gets one line; a second server measured into the same results folder is refused
 * in one line, the first one's results untouched.
 */
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";
import { tsv } from "./helpers.js";
import { countTokens } from "../../runner/count/tokens.js";
import { measureMatrix } from "../../bin/commands/measure.js";

const server = (transport: string) => ["node", join(root, "dist/targets/mcp-ts-v1/server.js"), "--transport", transport];

/** A port free on 127.0.0.1 now. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The stdout lines of measure that carry a configuration's totals. */
const totalsLines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .filter((l) => l.startsWith("raw-"));

test("measure --http … -- CMD: both transports, revisions found, one call each, results, tool catalog and page", { timeout: 180_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-"));
  try {
    const results = join(dir, "results");
    const r = await execa(
      process.execPath,
      [
        cli,
        "measure",
        "--name",
        "v1",
        "--tool",
        "echo",
        "--args",
        '{"text":"hi"}',
        "--repeats",
        "2",
        "--results",
        results,
        "--http",
        `${server("http").join(" ")} --port {port}`,
        "--",
        ...server("stdio"),
      ],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /^revisions: auto: target v1 speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25$/m);
    assert.match(r.stderr, /^ {2}skipped v1 × 2026-07-28: /m);
    assert.doesNotMatch(r.stderr, /stdio only|HTTP only/);
    // The skipped revision's cells say why in coverage.tsv: the probe's line per transport, not only the list found.
    for (const t of ["http", "stdio"])
      assert.match(
        tsv(join(results, "coverage.tsv")).find((c) => c.config === `raw-v1-${t}-2026-07-28-call`)!.reason!,
        /^target v1 does not speak revision 2026-07-28 \(revisions: auto found 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25; stdio: server answered 2025-era .* to a 2026-07-28 request; http: /,
      );
    const lines = totalsLines(r.stdout);
    assert.deepEqual(
      lines.map((l) => l.split("\t")[0]),
      [
        "raw-v1-http-2025-03-26-call",
        "raw-v1-http-2025-06-18-call",
        "raw-v1-http-2025-11-25-call",
        "raw-v1-stdio-2024-11-05-call",
        "raw-v1-stdio-2025-03-26-call",
        "raw-v1-stdio-2025-06-18-call",
        "raw-v1-stdio-2025-11-25-call",
      ],
    );
    const medians = tsv(join(results, "medians.tsv"));
    const tools = tsv(join(results, "tools.tsv"));
    for (const line of lines) {
      const [config, , total, , listBytes] = line.split("\t");
      assert.equal(total, medians.find((m) => m.config === config && m.metric === "total_bytes")!.median, `${config} total`);
      const messages = tsv(join(results, "logs", config!, "1.messages.tsv"));
      const list = messages.find((m) => m.dir === "s2c" && m.method === "tools/list" && m.kind === "result");
      assert.equal(listBytes, list!.body_bytes, `${config} tools/list answer bytes`);
      assert.ok(Number(listBytes) > 100);
      // Every JSON-RPC message has its tokens beside its bytes.
      for (const m of messages.filter((m) => ["request", "notification", "result", "error"].includes(m.kind ?? "")))
        assert.ok(Number(m.tokens_o200k_base) > 0 && Number(m.tokens_cl100k_base) > 0, `${config} seq ${m.seq} tokens`);
      // Each tool definition of the answer, over both transports: its bytes add up with the array's
      // commas to the answer's tools array, and its tokens are those of its text.
      const mine = tools.filter((t) => t.config === config);
      const echo = mine.find((t) => t.tool === "echo");
      assert.ok(echo && Number(echo.definition_bytes) > 50 && Number(echo.tokens_o200k_base) > 10, `${config} echo`);
      assert.equal(echo.transport, config!.split("-")[2]!);
      const s2c = readFileSync(join(results, "logs", config!, "1.jsonl"), "utf8")
        .split("\n")
        .filter((l) => l.includes('"s2c"') && l.includes("b64"))
        .map((l) => Buffer.from((JSON.parse(l) as { b64: string }).b64, "base64").toString("utf8"))
        .join("");
      // The answer's own line (stdio), or its SSE data line (HTTP).
      const answer = s2c
        .split(/\r?\n/)
        .map((l) => l.replace(/^data: /, ""))
        .find((l) => l.startsWith("{") && l.includes('"tools":['));
      const listed = (JSON.parse(answer!) as { result: { tools: { name: string }[] } }).result.tools;
      const text = JSON.stringify(listed.find((t) => t.name === "echo"));
      assert.equal(Number(echo.definition_bytes), Buffer.byteLength(text), `${config} echo bytes as sent`);
      assert.equal(Number(echo.tokens_o200k_base), countTokens(text, "o200k_base"));
      assert.equal(Number(echo.tokens_cl100k_base), countTokens(text, "cl100k_base"));
      assert.ok(
        r.stdout.includes(
          `${config!.split("-")[2]}\t${config!.split("-").slice(3, 6).join("-")}\techo\t${echo.definition_bytes}\t${echo.tokens_o200k_base}\t${echo.tokens_cl100k_base}`,
        ),
      );
    }
    assert.match(r.stdout, /tokenizers: o200k_base \(gpt-tokenizer 4\.0\.0\), cl100k_base \(gpt-tokenizer 4\.0\.0\)/);
    // What each revision adds: one pair per transport, with the session's change.
    const changes = tsv(join(results, "tools-changes.tsv"));
    for (const transport of ["http", "stdio"]) {
      const pair = changes.filter((c) => c.head_config === `raw-v1-${transport}-2025-11-25-call`);
      assert.ok(pair.length > 0 && pair.every((c) => c.axis === "revision" && c.from === "2025-06-18" && c.to === "2025-11-25"), transport);
    }
    const provenance = JSON.parse(readFileSync(join(results, "provenance.json"), "utf8")) as { tokenizers: string[]; flows: Record<string, { steps: string }> };
    assert.deepEqual(provenance.tokenizers, ["o200k_base (gpt-tokenizer 4.0.0)", "cl100k_base (gpt-tokenizer 4.0.0)"]);
    assert.equal(provenance.flows.call?.steps, "open, list-tools, call-tool");
    // The page: the answer for flow call over both transports, the catalog section, the flow defined from the results.
    const page = readFileSync(join(dir, "site", "v1.md"), "utf8");
    assert.match(page, /## The answer/);
    assert.match(page, /### Over HTTP\n+\| Flow \| Revision \| v1 \|\n\| --- \| --- \| ---: \|\n\| call \| 2025-03-26 \|/);
    assert.match(page, /## What this server's catalog costs a model's context/);
    assert.match(page, /tokens under o200k\\_base \(gpt-tokenizer 4\.0\.0\), cl100k\\_base \(gpt-tokenizer 4\.0\.0\)/);
    assert.match(page, /\| echo \| \d[\d,]* \| \d[\d,]* \/ \d[\d,]* \| \d[\d,]* \(\+?-?\d+\) \|/);
    assert.match(page, /- 2025-06-18 → 2025-11-25 over stdio: /);
    assert.match(page, /`call`: tools\/list, then one tools\/call of echo \(steps: open, list-tools, call-tool\)/);
    assert.ok(existsSync(join(dir, "site", "v1.html")), "the page");
    assert.ok(readFileSync(join(results, "measure.yaml"), "utf8").includes('"revisions": "auto"'));
    // Another server measured into the same folder: refused in one line, the folder and page as they were.
    const before = readdirSync(results).map((f) => [f, statSync(join(results, f)).mtimeMs]);
    const other = await execa(process.execPath, [cli, "measure", "--name", "other", "--results", results, "--", ...server("stdio")], {
      cwd: root,
      reject: false,
    });
    assert.equal(other.exitCode, 1, other.stderr);
    assert.equal(
      other.stderr.trim().split("\n").at(-1),
      `wirecost: --results ${results}: holds the measure of v1, which a measure of other would replace — give --results a folder of its own`,
    );
    assert.deepEqual(
      readdirSync(results).map((f) => [f, statSync(join(results, f)).mtimeMs]),
      before,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure --url: a server already running, given as localhost (127.0.0.1), measured over HTTP, the lines say why not stdio", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-url-"));
  const port = await freePort();
  const [cmd, ...args] = server("http");
  const running = spawn(cmd!, [...args, "--port", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  try {
    // The target says `listening on 127.0.0.1:PORT` on stderr once it accepts connections.
    await new Promise<void>((resolve, reject) => {
      let said = "";
      running.stderr!.on("data", (d: Buffer) => {
        said += d.toString();
        if (said.includes("listening on")) resolve();
      });
      running.once("exit", (code) => reject(new Error(`server exited ${code}: ${said}`)));
      setTimeout(() => reject(new Error(`server not listening after 30 s: ${said}`)), 30_000).unref();
    });
    const results = join(dir, "results");
    const r = await execa(
      process.execPath,
      [cli, "measure", "--url", `http://localhost:${port}/mcp`, "--tool", "echo", "--args", '{"text":"hi"}', "--repeats", "1", "--results", results],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 0, `${r.stdout}\n${r.stderr}`);
    assert.match(r.stderr, /^measure: Streamable HTTP only: the server is already running/m);
    assert.match(
      r.stderr,
      /^measure: --url http:\/\/localhost:\d+\/mcp: localhost taken as 127\.0\.0\.1 \(wirecost connects to 127\.0\.0\.1 only\); requests name localhost:\d+ in their Host header, as a client of that URL would$/m,
    );
    assert.deepEqual(
      totalsLines(r.stdout).map((l) => l.split("\t")[0]),
      ["2025-03-26", "2025-06-18", "2025-11-25"].map((rev) => `raw-server-${port}-http-${rev}-call`),
    );
    assert.ok(tsv(join(results, "tools.tsv")).some((t) => t.tool === "echo"));
    assert.equal(running.exitCode, null, "the running server is left running");
  } finally {
    running.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server that answers only a Host naming its own address (as @playwright/mcp does): measured through the relay by --http and by --url", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-host-"));
  const fixture = join(root, "test/fixtures/fault-targets/host-checked.mjs");
  const port = await freePort();
  const running = spawn("node", [fixture, String(port), "localhost"], { stdio: ["ignore", "ignore", "pipe"] });
  const listening = new Promise<void>((ready) => running.stderr!.on("data", (d: Buffer) => d.toString().includes("listening") && ready()));
  try {
    const measure = (name: string, ...how: string[]) =>
      execa(process.execPath, [cli, "measure", "--name", name, "--tool", "now", "--repeats", "1", "--results", join(dir, name), ...how], {
        cwd: root,
        reject: false,
      });
    const started = await measure("started", "--http", `node ${fixture} {port}`);
    assert.equal(started.exitCode, 0, started.stderr);
    assert.ok(totalsLines(started.stdout).length >= 3, started.stdout);
    // A results folder outside the checkout records its matrix by its absolute path: the page's reproduce commands hold from any folder.
    assert.equal(JSON.parse(readFileSync(join(dir, "started", "provenance.json"), "utf8")).matrix.file, join(dir, "started", "measure.yaml"));
    await listening;
    const running1 = await measure("running", "--url", `http://localhost:${port}/mcp`);
    assert.equal(running1.exitCode, 0, running1.stderr);
    assert.ok(totalsLines(running1.stdout).length >= 3, running1.stdout);
  } finally {
    running.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server that writes lines that are not JSON-RPC where its answers belong: the probe's line says so, with the first line", {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-junk-"));
  try {
    const junk = 'setInterval(() => console.log("junk not json"), 200)';
    const r = await execa(
      process.execPath,
      [cli, "measure", "--name", "junk", "--probe-timeout", "2", "--results", join(dir, "results"), "--", "node", "-e", junk],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(
      r.stderr.trim().split("\n").at(-1)!,
      /no answer to initialize after 2 s \(it wrote \d+ lines on stdout that are not JSON-RPC, the first: "junk not json"\)/,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("^C while the probes wait on a server that never answers: exit 130 within seconds, the line says what was interrupted, nothing of the server left", {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-probe-int-"));
  const marker = `probe-marker-${process.pid}-${Date.now()}`;
  try {
    const silent = "process.stdin.on('data', () => {}); setInterval(() => {}, 1000)";
    const child = spawn(
      process.execPath,
      [cli, "measure", "--name", "silent", "--probe-timeout", "30", "--results", join(dir, "results"), "--", "node", "-e", silent, marker],
      { cwd: root, stdio: ["ignore", "pipe", "pipe"] },
    );
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    await new Promise<void>((probing) =>
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        if (/^revisions: auto: probing target silent/m.test(stderr)) probing();
      }),
    );
    await new Promise((r) => setTimeout(r, 1500)); // the servers started and asked
    const sent = Date.now();
    child.kill("SIGINT");
    assert.equal(await exited, 130, stderr);
    assert.ok(Date.now() - sent < 10_000, `exited ${Date.now() - sent} ms after ^C, not at the 30 s probe timeout`);
    assert.match(stderr, /^interrupted before the first run \(while asking the targets which revisions they speak\): nothing written to /m);
    assert.doesNotMatch(stderr, /the runs written are in|while building targets/);
    await new Promise((r) => setTimeout(r, 500));
    const left = spawnSync("pgrep", ["-f", marker], { encoding: "utf8" }).stdout.trim();
    assert.equal(left, "", `server processes left: ${left}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a wirecost started with SHLVL unset (a detached job, cron) does not run the user's ~/.bashrc in the bash that starts a target", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-shlvl-"));
  try {
    // bash runs ~/.bashrc for a command whose stdin is a socket when SHLVL is below 2 (its rshd rule).
    writeFileSync(join(dir, ".bashrc"), `touch ${JSON.stringify(join(dir, "bashrc-ran"))}\n`);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: dir };
    delete env.SHLVL;
    const [cmd, ...args] = server("stdio");
    const r = await execa(process.execPath, [cli, "measure", "--name", "shlvl", "--repeats", "1", "--results", join(dir, "results"), "--", cmd!, ...args], {
      cwd: root,
      env,
      extendEnv: false,
      reject: false,
    });
    assert.equal(r.exitCode, 0, r.stderr);
    assert.ok(!existsSync(join(dir, "bashrc-ran")), "the user's ~/.bashrc ran in a target's bash");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure refuses a missing server, --args without --tool, an --http line without {port}, a --url off loopback and --repeats 0, in one line each", async () => {
  for (const [args, want] of [
    [[], /name one server/],
    [["--args", "{}", "--", "node", "x.js"], /--args without --tool/],
    [["--http", "node x.js --port 3000"], /no \{port\}/],
    [["--url", "http://192.0.2.1:3000/mcp"], /host 192\.0\.2\.1 is not 127\.0\.0\.1 — wirecost measures loopback only/],
    [["--url", "http://[::1]:3000/mcp"], /host \[::1\] is not 127\.0\.0\.1/],
    [["--url", "https://127.0.0.1:3000/mcp"], /https is not measured/],
    [["--url", "http://127.0.0.1:3000/mcp", "--http", "node x.js {port}"], /name one server/],
    // Numbers JSON.stringify would send as another value: refused, never sent changed.
    [
      ["--tool", "t", "--args", '{"id":12345678901234567890}', "--", "node", "x.js"],
      /^wirecost: --args \{"id":12345678901234567890\}: the number 12345678901234567890 would be sent as 12345678901234567000 — /,
    ],
    [["--tool", "t", "--args", '{"n":[1,1e999]}', "--", "node", "x.js"], /the number 1e999 would be sent as null — /],
    // A --name that would be changed, or too long for the folders it names: refused, never renamed unseen.
    [
      ["--name", "Ünïcødé", "--", "node", "x.js"],
      /^wirecost: measure: --name "Ünïcødé": a name is lower-case letters and digits in runs joined by single hyphens, starting with a letter — pass --name n-c-d /,
    ],
    [["--name", "Foo", "--", "node", "x.js"], /^wirecost: measure: --name "Foo": a name is .* — pass --name foo /],
    [["--name", "a--b", "--", "node", "x.js"], /^wirecost: measure: --name "a--b": a name is .* single hyphens.* — pass --name a-b /],
    // The name is the page's slug: the site's own index page is not a server's.
    [
      ["--name", "index", "--", "node", "x.js"],
      /^wirecost: measure: --name index names the site's own index page — pass --name index-server or another name$/m,
    ],
    [["--", "node", "index.js"], /^wirecost: measure: the name index names the site's own index page — pass --name index-server or another name$/m],
    [["--name", "a".repeat(300), "--", "node", "x.js"], /is 300 characters \(it names folders and files\) — pass --name NAME of at most 64$/m],
    // Zero repeats would measure nothing: refused before any install or probe.
    [["--repeats", "0", "--", "node", "x.js"], /--repeats takes a whole number from 1 to \d+, got "0"/],
  ] as const) {
    const r = await execa(process.execPath, [cli, "measure", ...args], { cwd: root, reject: false });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
    assert.match(r.stderr, want);
  }
});

test("measure --url where nothing listens: one line before anything is written, not three failed probes", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-url-none-"));
  try {
    const port = await freePort();
    const results = join(dir, "results");
    const r = await execa(process.execPath, [cli, "measure", "--url", `http://127.0.0.1:${port}/mcp`, "--results", results], { cwd: root, reject: false });
    assert.equal(r.exitCode, 1, r.stderr);
    assert.equal(
      r.stderr.trim(),
      `wirecost: --url http://127.0.0.1:${port}/mcp: nothing accepts connections on 127.0.0.1:${port} — start the server first (--url measures one already running), or give its command: --http 'CMD … {port}'`,
    );
    assert.ok(!existsSync(results));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure says in a line which of its own options stand after -- (they go to the server)", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-after-"));
  try {
    // wirecost's TypeScript v1 server refuses an option it does not know: every probe fails, and the line says why.
    const r = await execa(
      process.execPath,
      [cli, "measure", "--name", "after", "--probe-timeout", "5", "--results", join(dir, "results"), "--", ...server("stdio"), "--repeats=1", "--tool", "echo"],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 1, r.stderr);
    for (const opt of ["--repeats", "--tool"])
      assert.ok(r.stderr.includes(`measure: ${opt} after -- goes to the server, not to measure — put measure's options before --`), r.stderr);
    assert.doesNotMatch(r.stderr, /measure: --transport after --/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure names a server by the word of its command that names it: past a launcher's options, without a version", () => {
  for (const [argv, name] of [
    [["npx", "-y", "@modelcontextprotocol/server-sequential-thinking@2026.8.31"], "modelcontextprotocol-server-sequential-thinking"],
    [["python3", "-m", "mcp_server_time"], "mcp-server-time"],
    [["uvx", "mcp-server-time==2026.10.19"], "mcp-server-time"],
    [["uv", "run", "weather.py"], "weather"],
    [["node", "--no-warnings", "./build/my-server.mjs"], "my-server"],
    [["./bin/my-server", "--verbose"], "my-server"],
  ] as const)
    assert.equal(measureMatrix([...argv], { repeats: 1 }, root).name, name, argv.join(" "));
  // A number within a double's integers, a string of digits and a string holding "1e999" are sent as given.
  for (const args of ['{"a":9007199254740991}', '{"a":"12345678901234567890"}', '{"s":"x\\"1e999"}'])
    assert.doesNotThrow(() => measureMatrix(["node", "x.js"], { repeats: 1, tool: "t", args }, root), args);
});

test("measure refuses a versionless or path-like --npm / --pypi in one line, before it writes anything", async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-args-"));
  try {
    for (const [args, want] of [
      [["--npm", "some-mcp-server"], /^wirecost: --npm some-mcp-server: no version — give the exact version to install/],
      [["--npm", "some-mcp-server@^1.2.0"], /^wirecost: --npm some-mcp-server@\^1\.2\.0: "\^1\.2\.0" is not one exact version/],
      [["--npm", "../x@1.0.0"], /^wirecost: --npm \.\.\/x@1\.0\.0: "\.\.\/x" is not an npm package name/],
      [["--npm", "../x"], /^wirecost: --npm \.\.\/x: "\.\.\/x" is not an npm package name/],
      [["--pypi", "mcp-server-time"], /^wirecost: --pypi mcp-server-time: no version/],
      [["--pypi", "../x==1.0"], /^wirecost: --pypi \.\.\/x==1\.0: "\.\.\/x" is not a PyPI package name/],
    ] as const) {
      const results = join(dir, "results");
      const r = await execa(process.execPath, [cli, "measure", "--results", results, ...args], { cwd: root, reject: false });
      assert.equal(r.exitCode, 1, r.stderr);
      assert.equal(r.stderr.trim().split("\n").length, 1, r.stderr);
      assert.match(r.stderr, want);
      assert.ok(!existsSync(results), `${args.join(" ")}: nothing written`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a failed measure leaves the earlier results, measure.yaml, tools.tsv and the page byte-identical; a mistyped --tool is one line before any run", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-keep-"));
  const elsewhere = mkdtempSync(join(tmpdir(), "wirecost-measure-keep-server-"));
  /** Every file under `d` (relative path → bytes), the staging folder aside. */
  const snapshot = (d: string): Record<string, string> => {
    const out: Record<string, string> = {};
    for (const f of readdirSync(d, { recursive: true, encoding: "utf8" })) {
      if (f.split("/").includes(".wirecost-next")) continue;
      const p = join(d, f);
      if (statSync(p).isFile()) out[f] = readFileSync(p, "latin1");
    }
    return out;
  };
  try {
    const measure = (tool: string, command: readonly string[] = server("stdio")) =>
      execa(
        process.execPath,
        [cli, "measure", "--name", "v1", "--tool", tool, "--args", '{"text":"hi"}', "--repeats", "1", "--results", join(dir, "results"), "--", ...command],
        {
          cwd: root,
          reject: false,
        },
      );
    const ok = await measure("echo");
    assert.equal(ok.exitCode, 0, ok.stderr);
    const before = snapshot(dir);
    assert.ok(before["results/measure.yaml"] && before["results/tools.tsv"] && before["site/v1.html"], Object.keys(before).join(" "));
    // The server answers the probes (its first three starts) and then no longer starts: every run
    // fails, nothing replaced. (A tool called with arguments it refuses answers isError: a counted run.)
    const wrapper = join(elsewhere, "server.sh");
    writeFileSync(
      wrapper,
      `#!/bin/bash\nn=$(( $(cat "$0.count" 2>/dev/null || echo 0) + 1 )); echo $n > "$0.count"\n[ $n -ge 4 ] && exit 3\nexec ${server("stdio")
        .map((w) => JSON.stringify(w))
        .join(" ")}\n`,
    );
    chmodSync(wrapper, 0o755);
    const bad = await measure("echo", [wrapper]);
    assert.equal(bad.exitCode, 1, bad.stderr);
    assert.match(bad.stderr, /stay as they were/);
    assert.deepEqual(snapshot(dir), before, "nothing of the earlier measure changed");
    // A tool it does not list: one line naming the tools it has, before any run.
    const typo = await measure("ecko");
    assert.equal(typo.exitCode, 1, typo.stderr);
    assert.match(
      typo.stderr,
      /^wirecost: target v1: it lists no tool "ecko" \((?:2024-11-05|2025-03-26|2025-06-18|2025-11-25), stdio\); its tools: echo, add, confirm — name one of them/m,
    );
    assert.deepEqual(snapshot(dir), before, "nothing of the earlier measure changed");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});

test("revisions: auto keeps the transport that answers: an HTTP command that cannot start leaves the stdio runs of every revision", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-onetransport-"));
  try {
    const r = await execa(
      process.execPath,
      [
        cli,
        "measure",
        "--name",
        "half",
        "--repeats",
        "1",
        "--results",
        join(dir, "results"),
        "--http",
        'node -e "process.exit(3)" {port}',
        "--",
        ...server("stdio"),
      ],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    assert.match(r.stderr, /revisions: auto: target half speaks 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25/);
    assert.match(r.stderr, /skipped half × 2025-11-25 over http: http: target exited before listening/);
    const ids = tsv(join(dir, "results", "summary.tsv")).map((x) => x.config);
    assert.deepEqual(ids.sort(), [
      "raw-half-stdio-2024-11-05-list",
      "raw-half-stdio-2025-03-26-list",
      "raw-half-stdio-2025-06-18-list",
      "raw-half-stdio-2025-11-25-list",
    ]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("measure of a server that prints a log line on stdout: counted, and one line per configuration names the anomaly", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-stray-"));
  try {
    const r = await execa(
      process.execPath,
      [
        cli,
        "measure",
        "--name",
        "stray",
        "--repeats",
        "1",
        "--results",
        join(dir, "results"),
        "--",
        "node",
        join(root, "test/fixtures/fault-targets/stray-stdout-line.mjs"),
      ],
      { cwd: root, reject: false },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    const configs = tsv(join(dir, "results", "summary.tsv")).map((c) => c.config!);
    assert.ok(configs.length > 0);
    for (const c of configs)
      assert.match(
        r.stderr,
        new RegExp(`^measure: ${c}: anomalies in the server's bytes \\(counted as they stand\\): stdio-non-jsonrpc-line × 1 — see the page's anomalies$`, "m"),
      );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server whose tools/list grows with what the client declares: the page names the tool each revision adds, by name", { timeout: 120_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-adds-"));
  try {
    const results = join(dir, "results");
    const fixture = join(root, "test/fixtures/fault-targets/tools-by-capability.mjs");
    const r = await execa(
      process.execPath,
      [cli, "measure", "--name", "adds", "--tool", "now", "--repeats", "1", "--results", results, "--", "node", fixture],
      {
        cwd: root,
        reject: false,
      },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    const tools = tsv(join(results, "tools.tsv"));
    const ask = tools.find((t) => t.tool === "ask-user" && t.revision === "2025-06-18")!;
    const page = readFileSync(join(dir, "site", "adds.md"), "utf8");
    assert.match(
      page,
      new RegExp(
        `^- 2025-03-26 → 2025-06-18 over stdio: the tools/list exchange \\+\\d+ bytes — tools added: \`ask-user\` \\(${ask.definition_bytes} bytes, ${ask.tokens_o200k_base} o200k_base tokens\\); the session`,
        "m",
      ),
    );
    assert.match(page, /^- 2024-11-05 → 2025-03-26 over stdio: the tools\/list exchange unchanged/m);
    assert.ok(!/result\.tools\[/.test(page), "no tool named by its position in the list");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an interrupted measure (^C) renders no page from its unfinished runs, says so, and the same command run again measures anew", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-int-"));
  try {
    const results = join(dir, "results");
    const args = [
      cli,
      "measure",
      "--name",
      "int",
      "--tool",
      "echo",
      "--args",
      '{"text":"hi"}',
      "--repeats",
      "20",
      "--results",
      results,
      "--",
      ...server("stdio"),
    ];
    const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const exited = new Promise<number | null>((done) => child.on("exit", (code) => done(code)));
    await new Promise<void>((ready) =>
      child.stderr.on("data", (d: Buffer) => {
        stderr += d.toString();
        // The first run written: interrupt with the measure unfinished.
        if (/^\[\d+\/\d+\] .* ok/m.test(stderr)) ready();
      }),
    );
    child.kill("SIGINT");
    assert.equal(await exited, 130, stderr);
    assert.match(stderr, new RegExp(`^measure: interrupted — no page rendered from an unfinished measure; the runs written are in ${results}/`, "m"));
    assert.ok(!existsSync(join(dir, "site")), "no page");
    assert.ok(tsv(join(results, "runs.tsv")).length > 0, "the runs written are kept");
    const again = await execa(process.execPath, [...args.slice(0, 9), "2", ...args.slice(10)], { cwd: root, reject: false });
    assert.equal(again.exitCode, 0, again.stderr);
    assert.ok(existsSync(join(dir, "site", "int.md")));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a server that lists its tools two per page (nextCursor): every page requested, --tool found on the last, the catalog whole", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-paged-"));
  try {
    const results = join(dir, "results");
    const fixture = join(root, "test/fixtures/fault-targets/paged-tools.mjs");
    const r = await execa(
      process.execPath,
      [cli, "measure", "--name", "paged", "--tool", "tool-5", "--repeats", "1", "--results", results, "--", "node", fixture],
      {
        cwd: root,
        reject: false,
      },
    );
    assert.equal(r.exitCode, 0, r.stderr);
    const config = "raw-paged-stdio-2025-11-25-call";
    const messages = tsv(join(results, "logs", config, "1.messages.tsv"));
    const pages = messages.filter((m) => m.method === "tools/list" && m.kind === "result");
    assert.equal(pages.length, 3, "five tools two per page: three answers");
    assert.equal(messages.filter((m) => m.method === "tools/list" && m.kind === "request").length, 3);
    // A stdio session's trace: messages' bytes, no HTTP head or chunk framing columns.
    const trace = readFileSync(join(dir, "site", `config-paged--${config}.md`), "utf8");
    assert.match(trace, /^\| Seq \| Dir \| Part \| Method \| Message bytes \| Newline bytes \|/m);
    assert.deepEqual(
      tsv(join(results, "tools.tsv"))
        .filter((t) => t.config === config)
        .map((t) => t.tool),
      ["tool-1", "tool-2", "tool-3", "tool-4", "tool-5"],
    );
    const line = r.stdout.split("\n").find((l) => l.startsWith(`${config}\t`))!;
    assert.equal(line.split("\t")[4], String(pages.reduce((s, m) => s + Number(m.body_bytes), 0)), line);
    assert.match(messages.find((m) => m.method === "tools/call" && m.kind === "result")!.body_bytes!, /^\d+$/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("an HTTP server that exits at start: the line says so, not that 2024-11-05's HTTP transport is not spoken", { timeout: 60_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-exits-"));
  try {
    const r = await execa(
      process.execPath,
      [cli, "measure", "--name", "exits", "--probe-timeout", "5", "--results", join(dir, "results"), "--http", "false {port}"],
      {
        cwd: root,
        reject: false,
      },
    );
    assert.equal(r.exitCode, 1, r.stderr);
    assert.match(
      r.stderr.trim().split("\n").at(-1)!,
      /^wirecost: revisions: auto: no target answered any revision \(exits: http: target exited before listening on port \d+\) — /,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two servers measured into two results folders beside one site folder: both pages stay, the index is the first's and a line says so", {
  timeout: 120_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "wirecost-measure-site-"));
  try {
    const one = (name: string) =>
      execa(
        process.execPath,
        [
          cli,
          "measure",
          "--name",
          name,
          "--tool",
          "echo",
          "--args",
          '{"text":"hi"}',
          "--repeats",
          "1",
          "--results",
          join(dir, `results-${name}`),
          "--",
          ...server("stdio"),
        ],
        {
          cwd: root,
          reject: false,
        },
      );
    const first = await one("first");
    assert.equal(first.exitCode, 0, first.stderr);
    const index = readFileSync(join(dir, "site", "index.md"), "utf8");
    const second = await one("second");
    assert.equal(second.exitCode, 0, second.stderr);
    assert.match(
      second.stderr,
      /^measure: kept .*index\.md and index\.html as they are: they list the reports of the results folder \.\.\/results-first \(another render's\)/m,
    );
    for (const page of ["first.md", "first.html", "second.md", "second.html"]) assert.ok(existsSync(join(dir, "site", page)), page);
    assert.equal(readFileSync(join(dir, "site", "index.md"), "utf8"), index, "the first's index, as it was");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
