/**
 * The attribution engine on folded text written here (runner/attribution/): parseFolded per the
 * profile-window contract, stage rules loaded from YAML (file:line errors), the attribution of
 * samples to stages scaled to measured CPU, the kernel, hand-off, unclassified and not-attributed
 * rows, Go's monitor thread (sysmon_cpu_us) as its own measured row, and check (a): the rows sum to the window's wall time per call.
 */
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FoldedError, formatFolded, parseFolded } from "../../runner/attribution/folded.js";
import { checkRulesRole, loadStageRules, stageOfStack } from "../../runner/attribution/rules.js";
import { attribute } from "../../runner/attribution/attribute.js";
import { UserError } from "../../format/errors.js";

const dir = mkdtempSync(join(tmpdir(), "wirecost-attr-"));
function rulesFile(name: string, text: string): string {
  const f = join(dir, name);
  writeFileSync(f, text);
  return f;
}

const SERVER = `# wirecost-profile profiler=test@1 interval_us=1000 pid=42
main;serve;handle_call;parse_and_validate (known_cost.py:12) 300
main;serve;handle_call;do_work (known_cost.py:20) 200
main;serve;handle_call;build_result (known_cost.py:30) 100
main;serve;loop;select (selectors.py:468) 250
main;serve;mystery_fn (x.py:1) 150
`;

const serverRules = () =>
  loadStageRules(
    rulesFile(
      "server.yaml",
      `version: 1
process: server
rules:
  - { stage: parse-validate, frame: "^parse_and_validate " }
  - { stage: work, frame: "\\\\bdo_work\\\\b" }
  - { stage: build-result, frame: "build_result" }
  - { stage: schedule, frame: "^select " }
`,
    ),
  );

describe("parseFolded", () => {
  it("reads the header and the stacks; frames may hold spaces, the count is after the last one", () => {
    const p = parseFolded(SERVER);
    assert.deepEqual(p.meta, { profiler: "test@1", interval_us: "1000", pid: "42" });
    assert.equal(p.stacks.length, 5);
    assert.deepEqual(p.stacks[0], { frames: ["main", "serve", "handle_call", "parse_and_validate (known_cost.py:12)"], count: 300 });
  });
  it("round-trips through formatFolded", () => {
    const p = parseFolded(SERVER);
    assert.deepEqual(parseFolded(formatFolded(p)), p);
  });
  it("keeps a sample with no frames (py-spy --nonblocking writes ' 2' now and then) as an unclassifiable frame", () => {
    assert.deepEqual(parseFolded("a;b 3\n 2\n").stacks[1], { frames: ["(empty stack)"], count: 2 });
  });
  it("refuses a line without a count, or a count that is not a positive integer, naming the line", () => {
    assert.throws(
      () => parseFolded("a;b 3\na;b\n"),
      (e: Error) => e instanceof FoldedError && /line 2/.test(e.message),
    );
    assert.throws(() => parseFolded("a;b 0\n"), /line 1: sample count "0"/);
    assert.throws(() => parseFolded("a;;b 2\n"), /empty frame/);
  });
});

describe("stage rules", () => {
  it("try frames from the leaf up, rules in order at each frame, first match wins", () => {
    const r = serverRules();
    assert.equal(r.process, "server");
    assert.equal(stageOfStack(["main", "do_work (a.py:1)", "build_result (a.py:2)"], r.rules), "build-result", "the leaf wins over its caller");
    assert.equal(stageOfStack(["main", "do_work (a.py:1)", "sqlite3.execute"], r.rules), "work", "an unmatched leaf takes its caller's stage");
    assert.equal(stageOfStack(["main", "other"], r.rules), undefined);
  });
  it("include: a shared file's rules come after the file's own", () => {
    rulesFile("shared.yaml", "version: 1\nprocess: server\nrules:\n  - { stage: gc, frame: '^\\(garbage collector\\)$' }\n  - { stage: work, frame: main }\n");
    const r = loadStageRules(rulesFile("inc.yaml", "version: 1\nprocess: server\ninclude: [shared.yaml]\nrules:\n  - { stage: schedule, frame: main }\n"));
    assert.deepEqual(
      r.rules.map((x) => x.stage),
      ["schedule", "gc", "work"],
    );
  });
  it("a bad rule is one UserError line naming file:line and the fix", () => {
    const bad = rulesFile("bad.yaml", "version: 1\nprocess: server\nrules:\n  - { stage: parse-validate, frame: ok }\n  - { stage: nonsense, frame: x }\n");
    assert.throws(
      () => loadStageRules(bad),
      (e: Error) =>
        e instanceof UserError &&
        /bad\.yaml:5:\d+: stage "nonsense" is not a stage a rule can name; fix: use one of serialise/.test(e.message) &&
        !e.message.includes("\n"),
    );
    const regex = rulesFile("regex.yaml", "version: 1\nprocess: client\nrules:\n  - { stage: work, frame: '(' }\n");
    assert.throws(() => loadStageRules(regex), /regex\.yaml:4:\d+: frame is not a valid RegExp/);
    const proc = rulesFile("proc.yaml", "version: 1\nprocess: both\nrules: []\n");
    assert.throws(() => loadStageRules(proc), /proc\.yaml:2:\d+: process is "both"; fix: write process: server or process: client/);
    const key = rulesFile("key.yaml", "version: 1\nprocess: server\nrules:\n  - { stage: work, frame: x, extra: 1 }\n");
    assert.throws(() => loadStageRules(key), /key\.yaml:4:\d+: unknown key "extra"/);
    assert.throws(() => loadStageRules(join(dir, "absent.yaml")), /absent\.yaml: stage-rules file not found/);
  });

  it("a client's rules named as a server's stages (or the reverse) is one line naming the file, its process and the key", () => {
    const client = loadStageRules(rulesFile("client-role.yaml", "version: 1\nprocess: client\nrules:\n  - { stage: work, frame: x }\n"));
    checkRulesRole(client, "client");
    assert.throws(
      () => checkRulesRole(client, "server"),
      (e: Error) =>
        e instanceof UserError &&
        !e.message.includes("\n") &&
        /client-role\.yaml: process: client, but the matrix names it as the server's rules \(profile\.stages\)/.test(e.message),
    );
    const server = loadStageRules(rulesFile("server-role.yaml", "version: 1\nprocess: server\nrules: []\n"));
    assert.throws(() => checkRulesRole(server, "client"), /process: server, but the matrix names it as the client's rules \(profile\.clientStages\)/);
  });
});

describe("attribute", () => {
  const clientProfile = parseFolded("run;timeCalls;callTool;JSON.stringify 40\nrun;timeCalls;callTool;onData;JSON.parse 60\n");
  const clientRules = () =>
    loadStageRules(
      rulesFile(
        "client.yaml",
        "version: 1\nprocess: client\nrules:\n  - { stage: serialise, frame: stringify }\n  - { stage: parse-result, frame: JSON.parse }\n",
      ),
    );

  it("splits each process's measured user CPU by samples, adds kernel and hand-off, and the rows sum to the window's wall time per call", () => {
    const t = attribute({
      calls: 100,
      wallUs: 100 * 5000,
      processes: [
        { role: "client", cpu: { userUs: 100 * 1000, systemUs: 100 * 200 }, profile: clientProfile, rules: clientRules() },
        { role: "server", cpu: { userUs: 100 * 2000, systemUs: 100 * 300 }, profile: parseFolded(SERVER), rules: serverRules() },
      ],
    });
    const us = (p: string, s: string) => t.rows.find((r) => r.process === p && r.stage === s)?.usPerCall;
    assert.equal(us("client", "serialise"), 400);
    assert.equal(us("client", "parse-result"), 600);
    assert.equal(us("client", "kernel"), 200);
    assert.equal(us("server", "parse-validate"), 600, "300 of 1000 samples × 2000 µs");
    assert.equal(us("server", "work"), 400);
    assert.equal(us("server", "build-result"), 200);
    assert.equal(us("server", "schedule"), 500);
    assert.equal(us("server", "unclassified"), 300);
    assert.equal(us("server", "kernel"), 300);
    assert.equal(us("between", "hand-off"), 5000 - 1200 - 2300);
    assert.ok(Math.abs(t.sumUsPerCall! - t.wallUsPerCall) < 1e-9, "check (a): the rows sum to the window per call");
    assert.deepEqual(t.unclassifiedTop, [{ process: "server", frame: "mystery_fn (x.py:1)", samples: 150, usPerCall: 300 }]);
  });

  it("a Go profile's sysmon_cpu_us becomes the server's monitor row, taken out of the user CPU the samples split, and the rows still sum", () => {
    const goServer = parseFolded(`# wirecost-profile profiler=go-runtime/pprof@go1.26.8 target=mcp-go pid=7 sysmon_cpu_us=50000 interval_us=1003.009
main.main;main.(*server).handle;main.parseAndValidate 300
main.main;main.(*server).handle;main.doWork 100
runtime.mcall;runtime.park_m;runtime.schedule 100
`);
    const goRules = loadStageRules(
      rulesFile(
        "go.yaml",
        "version: 1\nprocess: server\nrules:\n  - { stage: parse-validate, frame: '^main\\.parseAndValidate$' }\n  - { stage: work, frame: '^main\\.doWork$' }\n  - { stage: schedule, frame: '^runtime\\.schedule$' }\n",
      ),
    );
    const t = attribute({
      calls: 100,
      wallUs: 100 * 3000,
      processes: [{ role: "server", cpu: { userUs: 100 * 2500, systemUs: 100 * 100 }, profile: goServer, rules: goRules }],
    });
    const us = (s: string) => t.rows.find((r) => r.stage === s)?.usPerCall;
    assert.equal(us("monitor"), 500, "50,000 µs over 100 calls, measured: its own row");
    assert.equal(us("parse-validate"), 1200, "300 of 500 samples × (2500 − 500) µs: the monitor is not spread over the sampled stages");
    assert.equal(us("work"), 400);
    assert.equal(us("schedule"), 400);
    assert.equal(us("kernel"), 100, "the system CPU stays the kernel row");
    assert.equal(t.rows.find((r) => r.stage === "monitor")!.kind, "scheduling", "it adds to the scheduling subtotal");
    assert.ok(Math.abs(t.sumUsPerCall! - t.wallUsPerCall) < 1e-9, "check (a) still holds");

    // More monitor time than user CPU (a thread mostly in system calls): the excess comes out of the kernel row.
    const heavy = attribute({
      calls: 1,
      wallUs: 1000,
      processes: [
        {
          role: "server",
          cpu: { userUs: 40, systemUs: 200 },
          profile: parseFolded(`# wirecost-profile p=1 sysmon_cpu_us=100\nmain.main;main.doWork 5\n`),
          rules: goRules,
        },
      ],
    });
    const hu = (s: string) => heavy.rows.find((r) => r.stage === s)?.usPerCall;
    assert.deepEqual([hu("monitor"), hu("work"), hu("kernel")], [100, 0, 140]);
    assert.ok(Math.abs(heavy.sumUsPerCall! - 1000) < 1e-9);

    // Without the header key (every sampler but Go's) or with a value that is not a number: no monitor row, nothing taken out.
    for (const header of ["# wirecost-profile x=1", "# wirecost-profile sysmon_cpu_us=-5", "# wirecost-profile sysmon_cpu_us=abc"]) {
      const plain = attribute({
        calls: 1,
        wallUs: 1000,
        processes: [{ role: "server", cpu: { userUs: 400, systemUs: 0 }, profile: parseFolded(`${header}\nmain.main;main.doWork 5\n`), rules: goRules }],
      });
      assert.equal(
        plain.rows.find((r) => r.stage === "monitor"),
        undefined,
        header,
      );
      assert.equal(plain.rows.find((r) => r.stage === "work")!.usPerCall, 400, header);
    }
  });

  it("rules that match nothing leave every sample unclassified, with its top leaf functions", () => {
    const none = loadStageRules(rulesFile("none.yaml", "version: 1\nprocess: server\nrules:\n  - { stage: work, frame: '^matches_nothing$' }\n"));
    const t = attribute({
      calls: 10,
      wallUs: 50_000,
      processes: [{ role: "server", cpu: { userUs: 20_000, systemUs: 0 }, profile: parseFolded(SERVER), rules: none }],
    });
    const staged = t.rows.filter((r) => r.process === "server" && r.stage !== "kernel");
    assert.deepEqual(
      staged.map((r) => [r.stage, r.usPerCall]),
      [["unclassified", 2000]],
    );
    assert.equal(t.unclassifiedTop[0]!.frame, "parse_and_validate (known_cost.py:12)");
  });

  it("a process without a profile says not attributed: <reason> and keeps its measured CPU (never zeros)", () => {
    const t = attribute({
      calls: 10,
      wallUs: 40_000,
      processes: [
        { role: "client", cpu: { userUs: 10_000, systemUs: 1_000 }, profile: clientProfile, rules: clientRules() },
        { role: "server", cpu: { userUs: 20_000, systemUs: 2_000 }, profile: null, notAttributed: "py-spy not found", rules: serverRules() },
      ],
    });
    const na = t.rows.find((r) => r.process === "server" && r.stage === "not-attributed")!;
    assert.equal(na.note, "not attributed: py-spy not found");
    assert.equal(na.usPerCall, 2000);
    assert.ok(!t.rows.some((r) => r.process === "server" && r.samples !== null), "no stage rows for it");
    assert.equal(t.rows.find((r) => r.stage === "hand-off")!.usPerCall, 4000 - 1100 - 2200);
  });

  it("a process whose CPU was not read makes its time and the hand-off null, not zero", () => {
    const t = attribute({
      calls: 1,
      wallUs: 1000,
      processes: [{ role: "server", cpu: null, cpuReason: "no /proc", profile: null, notAttributed: "profiler refused", rules: null }],
    });
    assert.equal(t.rows.find((r) => r.stage === "not-attributed")!.usPerCall, null);
    assert.equal(t.rows.find((r) => r.stage === "hand-off")!.usPerCall, null);
    assert.equal(t.sumUsPerCall, null);
  });
});
