/**
 * CPU pinning layouts (Linux `taskset`). `default` pins nothing. `pinned` puts the target on one
 * core and the measuring client on the others: it needs 2 cores the process may use (target on the
 * first allowed core, client on the rest). Layouts are applied to every thread (`taskset -a -p`).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { UserError } from "../../format/errors.js";

/** A resolved layout: which cores the target and the client get (empty = not pinned). */
export interface Layout {
  name: string;
  /** Cores the target runs on; empty = anywhere. */
  targetCores: number[];
  /** Cores the client (this process) runs on; empty = anywhere. */
  clientCores: number[];
  /** The taskset lists applied, for provenance, e.g. `target='taskset -c 0' client='taskset -c 1'`. */
  description: string;
}

/** Parse a Linux CPU list (`0-3,6`) into core numbers. @throws Error on bad syntax */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.trim().split(",").filter(Boolean)) {
    const m = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!m) throw new Error(`bad CPU list "${list}"`);
    for (let c = Number(m[1]); c <= Number(m[2] ?? m[1]); c++) out.push(c);
  }
  return out;
}

/** Cores this process may run on (`Cpus_allowed_list` of /proc/self/status). */
export function allowedCores(pid: number | "self" = "self"): number[] {
  const m = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return m ? parseCpuList(m[1]!) : [];
}

/** Layout names and the cores each needs. */
export const LAYOUTS: Record<string, { coresNeeded: number; describe: string }> = {
  default: { coresNeeded: 1, describe: "nothing pinned: every process free to run on any core" },
  pinned: { coresNeeded: 2, describe: "target on one core, client on the others" },
};

/**
 * Resolve a layout against the cores available.
 * @param name layout name (`default`, `pinned`, or `pinned-N`: target on N cores, client on ≥ 1 other)
 * @param cores cores available (default: this process's allowed cores)
 * @param where key or file:line:col naming the layout in messages
 * @throws UserError for an unknown layout, or one needing more cores than available (naming the cores needed)
 */
export function resolveLayout(name: string, cores: number[] = allowedCores(), where = "pinning"): Layout {
  if (name === "default") return { name, targetCores: [], clientCores: [], description: "no CPU pinning" };
  const m = /^pinned(?:-(\d+))?$/.exec(name);
  if (!m) throw new UserError(`${where}: unknown layout "${name}" — use one of: default, pinned, pinned-N (target on N cores)`);
  const targetN = Number(m[1] ?? 1);
  const needed = targetN + 1;
  if (targetN < 1 || cores.length < needed) {
    const wanted = Array.from({ length: needed }, (_, i) => i);
    throw new UserError(
      `${where}: layout "${name}" needs ${needed} cores (target on core${targetN > 1 ? "s" : ""} ${wanted.slice(0, targetN).join(",")}, client on core ${wanted[targetN]}) but this machine allows ${cores.length} (${cores.join(",") || "none"}) — use pinning "default" or run on a machine with ≥ ${needed} cores`,
    );
  }
  const targetCores = cores.slice(0, targetN);
  const clientCores = cores.slice(targetN);
  return { name, targetCores, clientCores, description: `target='taskset -c ${targetCores.join(",")}' client='taskset -c ${clientCores.join(",")}'` };
}

/**
 * Pin every thread of `pid` to `cores` (`taskset -a -p -c`); empty `cores` = all allowed cores.
 * @throws Error when taskset fails
 */
export function pinProcess(pid: number, cores: number[], all: number[] = allowedCores()): void {
  const list = (cores.length ? cores : all).join(",");
  execFileSync("taskset", ["-a", "-p", "-c", list, String(pid)], { stdio: "ignore" });
}

/** The distinct `Cpus_allowed_list` values over the threads of `pid` (one entry when uniform). */
export function threadAffinities(pid: number): string[] {
  const out = new Set<string>();
  for (const tid of execFileSync("ls", [`/proc/${pid}/task`], { encoding: "utf8" })
    .split("\n")
    .filter(Boolean)) {
    try {
      const m = /Cpus_allowed_list:\s*(\S+)/.exec(readFileSync(`/proc/${pid}/task/${tid}/status`, "utf8"));
      if (m) out.add(m[1]!);
    } catch {
      /* thread gone */
    }
  }
  return [...out];
}
