/**
 * The tools a target's build needs (`build.toolchain` in the matrix): are they here, and which
 * versions are they. A missing tool is a reason, one line naming what to install.
 */
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, isAbsolute, join, resolve } from "node:path";
import { spawnSync, type SpawnSyncOptionsWithStringEncoding } from "node:child_process";
import type { Buildable } from "../matrix/types.js";

/**
 * Run a toolchain probe and wait for it. The probe runs in its own process group (`detached`, which
 * Node's spawnSync honours like spawn), so a ^C typed while it runs reaches wirecost only: a probe
 * killed by it would read as a missing tool or an "unknown" version, which changes the build's
 * cache key and rebuilds the target on the next run.
 * @returns exit code (null when killed or not started), stdout, stderr, and the spawn error if any
 */
function probe(argv: readonly string[], cwd: string): { exitCode: number | null; stdout: string; stderr: string; error?: Error } {
  const options: SpawnSyncOptionsWithStringEncoding & { detached: boolean } = {
    cwd,
    timeout: 30_000,
    stdio: ["ignore", "pipe", "pipe"],
    encoding: "utf8",
    detached: true,
  };
  const r = spawnSync(argv[0]!, argv.slice(1), options);
  return { exitCode: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "", ...(r.error ? { error: r.error } : {}) };
}

/** Is `file` an executable regular file? */
function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/**
 * Resolve a program name like a shell would: a name with `/` relative to `cwd`, else each PATH folder.
 * @returns the absolute path of the executable file, or undefined when there is none
 */
export function findProgram(program: string, cwd: string, path = process.env.PATH ?? ""): string | undefined {
  if (program.includes("/")) {
    const f = isAbsolute(program) ? program : resolve(cwd, program);
    return executable(f) ? f : undefined;
  }
  for (const dir of path.split(delimiter)) {
    if (dir && executable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/**
 * Why `target` cannot be built on this machine, or undefined when every tool it lists is here.
 * @returns e.g. `target mcp-go needs go, which is not on PATH — install Go 1.26 or later`
 */
export function missingToolchain(target: Buildable, cwd: string): string | undefined {
  for (const tc of target.build?.toolchain ?? []) {
    if (!findProgram(tc.command, cwd)) return `target ${target.name} needs ${tc.command}, which is not on PATH — install ${tc.install}`;
    if (tc.probe) {
      const r = probe(tc.probe, cwd);
      if (r.exitCode !== 0) {
        const why =
          String(r.stderr || r.stdout || r.error?.message || `exit ${r.exitCode ?? "by a signal"}`)
            .trim()
            .split("\n")
            .pop() ?? "";
        return `target ${target.name} needs \`${tc.probe.join(" ")}\` to work, which failed${why ? ` (${why.slice(0, 160)})` : ""} — install ${tc.install}`;
      }
    }
  }
  return undefined;
}

/**
 * The version line of every tool `target` lists with a `version` command (e.g. `go` →
 * `go version go1.26.8 linux/amd64`); a command that fails gives "unknown".
 */
export function toolchainVersions(target: Buildable, cwd: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const tc of target.build?.toolchain ?? []) {
    if (!tc.version) continue;
    const r = probe(tc.version, cwd);
    const line = `${r.stdout}\n${r.stderr}`.trim().split("\n")[0]?.trim();
    out[tc.command] = r.exitCode === 0 && line ? line : "unknown";
  }
  return out;
}
