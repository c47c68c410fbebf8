/**
 * Helpers of the tests that drive the real CLI as a person does: on a pseudo-terminal (^C typed,
 * not a signal sent to one pid), and reading back the commands it prints to check that the
 * command each one names accepts it.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { buildProgram } from "../../bin/program.js";
import { checkVerifiable } from "../../bin/commands/verify.js";
import { shellQuote } from "../../format/shell.js";
import { loadMatrix } from "../../runner/matrix/parse.js";
import { checkModeOptions, modeOf } from "../../runner/modes/index.js";
import { cli, root } from "../paths.js";

/** Is util-linux `script` here (it gives a command a pseudo-terminal)? */
export const HAVE_SCRIPT = spawnSync("script", ["--version"], { stdio: "ignore" }).status === 0;

/** A wirecost process started on a pseudo-terminal. */
export interface PtyRun {
  child: ChildProcess;
  /** Everything it wrote to the terminal so far (stdout and stderr together, as a terminal shows them). */
  output(): string;
  /** Resolves once `pattern` appears in the output. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Type ^C on its terminal (or, without `script`, SIGINT its process group); returns when it was sent (ms, `Date.now()`). */
  interrupt(): number;
  /** Exit code and when it exited (ms, `Date.now()`). */
  exited: Promise<{ code: number | null; at: number }>;
}

/**
 * Start `wirecost ARGS` on a pseudo-terminal (`script -qfec`, so stdin, stdout and stderr are a
 * terminal and ^C reaches its foreground process group through the terminal, as when a person
 * types it). Without `script`, it runs in its own process group and ^C is SIGINT to that group.
 * @param env added to this process's environment
 */
export function onPty(args: string[], env: Record<string, string> = {}, cwd = root): PtyRun {
  const line = ["exec", process.execPath, cli, ...args].map(shellQuote).join(" ");
  const child = HAVE_SCRIPT
    ? spawn("script", ["-qfec", line, "/dev/null"], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"] })
    : spawn(process.execPath, [cli, ...args], { cwd, env: { ...process.env, ...env }, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let out = "";
  const waiters: { re: RegExp; res: () => void }[] = [];
  const onData = (d: Buffer) => {
    out += d.toString("utf8");
    for (const w of [...waiters]) {
      if (!w.re.test(out)) continue;
      waiters.splice(waiters.indexOf(w), 1);
      w.res();
    }
  };
  child.stdout!.on("data", onData);
  child.stderr!.on("data", onData);
  const exited = new Promise<{ code: number | null; at: number }>((res) => child.on("exit", (code) => res({ code, at: Date.now() })));
  return {
    child,
    output: () => out,
    waitFor(re, timeoutMs = 60_000) {
      if (re.test(out)) return Promise.resolve();
      return new Promise<void>((res, rej) => {
        const t = setTimeout(() => rej(new Error(`no ${re} within ${timeoutMs} ms in:\n${out}`)), timeoutMs);
        waiters.push({
          re,
          res: () => {
            clearTimeout(t);
            res();
          },
        });
      });
    },
    interrupt() {
      if (HAVE_SCRIPT) child.stdin!.write("\x03");
      else process.kill(-child.pid!, "SIGINT");
      return Date.now();
    },
    exited,
  };
}

/** Terminal output as plain lines: colour and cursor sequences removed, each `\r` a line break. */
export function plainLines(text: string): string[] {
  return text
    .replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, "")
    .split(/\r\n|\r|\n/)
    .map((l) => l.trimEnd());
}

/** Split words as sh does for what format/shell.ts writes: plain words and '…' quoted ones (with '\'' inside). */
export function shellWords(text: string): string[] {
  const words: string[] = [];
  const re = /(?:'((?:[^']|'\\'')*)'|([^\s']+))+/g;
  for (const m of text.matchAll(re)) {
    words.push(
      m[0].replace(/'((?:[^']|'\\'')*)'|([^\s']+)/g, (_all, q: string | undefined, plain: string | undefined) =>
        q !== undefined ? q.replaceAll("'\\''", "'") : plain!,
      ),
    );
  }
  return words;
}

/** The `npx wirecost …` commands in `line` (a command ends at the end of the line, a comma, a semicolon or a backtick). */
export function suggestedCommands(line: string): string[][] {
  return [...line.matchAll(/npx wirecost((?: (?:'(?:[^']|'\\'')*'|[^\s,;`']+))+)/g)].map((m) => shellWords(m[1]!));
}

/** A command line as commander parsed it. */
export interface Parsed {
  command: string;
  args: unknown[];
  opts: Record<string, unknown>;
}

/**
 * Parse `words` (what follows `wirecost`) with the real program, its actions replaced: nothing runs.
 * @throws the commander error (an unknown option, a bad value, a missing argument)
 */
export function parseWirecost(words: string[]): Parsed {
  const program = buildProgram();
  const quiet = { writeOut: () => {}, writeErr: () => {} };
  program.exitOverride().configureOutput(quiet);
  let got: Parsed | undefined;
  for (const c of program.commands) {
    c.exitOverride().configureOutput(quiet);
    c.action((...a: unknown[]) => {
      const cmd = a.at(-1) as Command;
      got = { command: cmd.name(), args: a.slice(0, -2), opts: cmd.opts() };
    });
  }
  program.parse(["node", "wirecost", ...words]);
  if (!got) throw new Error(`wirecost ${words.join(" ")}: no command`);
  return got;
}

/** Placeholders that printed commands leave for the user, and what a test puts there. */
export interface Placeholders {
  /** `<id>`: a configuration id of the named matrix. */
  id?: string;
  /** `NEW_FOLDER`, `DIR`, `/tmp/wirecost-<id>`-style folders are left as they are unless given here. */
  folder?: string;
}

/**
 * Check that `words` is accepted by the command it names: commander parses it, and for `run` the
 * matrix's mode takes its options (runner/modes/index.ts checkModeOptions), for `verify` the
 * checks that refuse a verification before it runs pass (bin/commands/verify.ts checkVerifiable).
 * @returns the parsed command
 * @throws whatever refuses it
 */
export function checkAccepted(words: string[], fill: Placeholders = {}): Parsed {
  const filled = words.map((w) => {
    let v = fill.id !== undefined ? w.replaceAll("<id>", fill.id) : w;
    if (fill.folder !== undefined && /^(NEW_FOLDER|DIR|OUT)$/.test(v)) v = fill.folder;
    return v;
  });
  const p = parseWirecost(filled);
  const file = (p.args[0] as string | undefined) ?? "matrix.yaml";
  if (p.command === "run" && existsSync(resolve(root, file))) {
    const m = loadMatrix(resolve(root, file));
    checkModeOptions(modeOf(m), file, p.opts as never);
  }
  if (p.command === "verify") checkVerifiable(file, p.opts as never);
  return p;
}

/**
 * The options (`--name`) mentioned in `line` outside its `npx wirecost …` commands that `command`
 * (the command that printed the line) does not have: a refusal must only tell the user to pass
 * options that exist.
 */
export function unknownFlags(line: string, command: string): string[] {
  const program = buildProgram();
  const cmd = program.commands.find((c) => c.name() === command);
  if (!cmd) throw new Error(`no command ${command}`);
  const prose = line.replace(/npx wirecost((?: (?:'(?:[^']|'\\'')*'|[^\s,;`']+))+)/g, "");
  const flags = [...prose.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)].map((m) => m[0]);
  return flags.filter((f) => !cmd.options.some((o) => o.long === f));
}
