/**
 * Fork servers for Python targets in bytes runs (a target's `forkserver:`; ARCHITECTURE.md, "Fork
 * servers"): one process per target imports the SDK's modules once (`preload`), and each run's
 * server is forked from it by a small launcher that stands in for `PYTHON SCRIPT ARG...`, passing
 * its stdin, stdout and stderr on (targets/common/forkserver.py holds both sides). The server
 * script runs unchanged, so its bytes are the same; what is saved is the interpreter's start-up and
 * the imports, about 0.8 s of CPU per run for the Python MCP SDK server. Timing and per-call runs
 * never use it: they start the target as declared.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Target, TargetCommand } from "../matrix/types.js";
import { repoRoot } from "../paths.js";
import { startTarget, type TargetProcess } from "./process.js";

/** The fork server and launcher script (Python, standard library only on the launcher's side). */
export const FORKSERVER_SCRIPT = join(repoRoot, "targets", "common", "forkserver.py");

/** How long a fork server may take to import its modules and say `ready`, milliseconds. */
const READY_TIMEOUT_MS = 60_000;

interface Running {
  proc: TargetProcess;
  socket: string;
}

/**
 * The fork servers of one matrix run, started on first use (one per target) and stopped by
 * {@link ForkServers.close}.
 */
export class ForkServers {
  private readonly dir = mkdtempSync(join(tmpdir(), "wirecost-fork-"));
  private readonly servers = new Map<string, Promise<Running>>();

  /**
   * The command that runs `cmd` of `target` as a child of the target's fork server: `[PYTHON, -I,
   * -S, forkserver.py, launch, SOCKET, --, SCRIPT, ARG...]` for `cmd.argv` = `[PYTHON, SCRIPT,
   * ARG...]` (placeholders such as `{port}` are left for startTarget). Starts the fork server on
   * the target's first call, importing `target.forkserver.preload`.
   * @param cwd the folder the target's commands run from (the matrix folder)
   * @throws Error when the target has no `forkserver:`, its argv is not `[PYTHON, SCRIPT, ...]`, or
   *   its fork server exits or stays silent for 60 s before `ready` (its stderr in the message)
   */
  async command(target: Target, cmd: TargetCommand, cwd: string): Promise<TargetCommand> {
    const [python, script, ...args] = cmd.argv;
    if (!target.forkserver || python === undefined || script === undefined)
      throw new Error(`target ${target.name}: a fork server needs forkserver: and an argv of [PYTHON, SCRIPT, ...]`);
    let server = this.servers.get(target.name);
    if (!server) {
      server = this.start(target.name, python, target.forkserver.preload, cwd);
      this.servers.set(target.name, server);
    }
    const { socket } = await server;
    return { ...cmd, argv: [python, "-I", "-S", FORKSERVER_SCRIPT, "launch", socket, "--", script, ...args] };
  }

  /** Start one fork server and wait for its `ready` line. */
  private async start(name: string, python: string, preload: readonly string[], cwd: string): Promise<Running> {
    const socket = join(this.dir, `${this.servers.size}.sock`);
    const proc = startTarget({ argv: [python, FORKSERVER_SCRIPT, "serve", socket, ...preload], env: {} }, {}, cwd);
    try {
      await new Promise<void>((resolve, reject) => {
        let out = "";
        const timer = setTimeout(() => reject(new Error(`no ready line within ${READY_TIMEOUT_MS / 1000} s`)), READY_TIMEOUT_MS);
        proc.child.stdout?.on("data", (d: Buffer) => {
          out += d.toString("utf8");
          if (out.includes("ready\n")) {
            clearTimeout(timer);
            resolve();
          }
        });
        void proc.child.then(() => {
          clearTimeout(timer);
          reject(new Error(`exited (${proc.exit() || proc.spawnError() || "?"}) before it was ready`));
        });
      });
    } catch (e) {
      await proc.stop();
      const tail = proc.stderrExcerpt();
      throw new Error(`the fork server of target ${name} (${python} ${FORKSERVER_SCRIPT} serve): ${(e as Error).message}${tail ? ` | stderr: ${tail}` : ""}`);
    }
    return { proc, socket };
  }

  /** Stop every fork server (and so every child still running) and remove their sockets' folder. */
  async close(): Promise<void> {
    const all = await Promise.allSettled(this.servers.values());
    await Promise.all(all.map((s) => (s.status === "fulfilled" ? s.value.proc.stop() : undefined)));
    this.servers.clear();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
