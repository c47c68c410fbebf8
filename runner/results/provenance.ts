/**
 * provenance.json: what produced a results folder — tool version, git commit and dirty flag
 * (simple-git), matrix hash, resolved target package versions, Node, OS, kernel, CPU, the
 * command line, start and end times.
 */
import { tokenizerNames } from "../count/tokens.js";
import { arch, cpus, platform, release } from "node:os";
import { relative, resolve } from "node:path";
import { execaSync } from "execa";
import { simpleGit } from "simple-git";
import { repoRoot, toolInfo } from "../paths.js";
import { installedPackageVersion } from "../matrix/preflight.js";
import type { Target } from "../matrix/types.js";
import type { BuildRecord } from "../build/build.js";
import { readResolved, resolvedVersion } from "../build/resolved.js";
import type { ResolvedSource } from "../matrix/types.js";
import { SCHEMA_VERSION, type BuildProvenance, type Provenance } from "../../format/schema.js";

/** The provenance part of build records: target name → {@link BuildProvenance}, sorted by name. */
export function buildsProvenance(records: ReadonlyMap<string, BuildRecord>): Record<string, BuildProvenance> {
  return Object.fromEntries(
    [...records.entries()]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([name, r]) => [
        name,
        {
          ...(r.resolved ? { ecosystem: r.resolved.ecosystem } : {}),
          toolchain: r.toolchain,
          packages: r.resolved?.packages ?? {},
          digest: r.digest,
          builtAt: r.builtAt,
        },
      ]),
  );
}

/**
 * Git commit and dirty flag of the wirecost checkout; "unknown" outside a git work tree.
 * Changes under the checkout's `results/` and `site/` (outputs, not code) never count.
 * @param ignore further folders (absolute or relative to the cwd) whose changes do not count:
 *   a results folder being written elsewhere in the checkout
 */
export async function gitState(ignore: string[] = []): Promise<Provenance["git"]> {
  try {
    const git = simpleGit(repoRoot);
    const commit = (await git.revparse(["HEAD"])).trim();
    const status = await git.status();
    const outputs = [resolve(repoRoot, "results"), resolve(repoRoot, "site"), ...ignore];
    const skip = outputs.map((d) => relative(repoRoot, resolve(d)) + "/").filter((d) => !d.startsWith(".."));
    const changed = status.files.filter((f) => !skip.some((d) => f.path.startsWith(d)));
    return { commit, dirty: changed.length > 0 };
  } catch {
    return { commit: "unknown", dirty: true };
  }
}

/**
 * Build the provenance record: every target's package and every `clientPackages` name with its
 * installed version; `report`, `clients` and `flows` are recorded as given (left out when not
 * given); `tokenizers` names the tokenizers of the token columns (runner/count/tokens.ts).
 */
export async function collectProvenance(args: {
  matrixFile: string;
  matrixSha256: string;
  report?: Provenance["report"];
  clients?: Provenance["clients"];
  flows?: Provenance["flows"];
  targets: Target[];
  clientPackages?: readonly string[];
  builds?: ReadonlyMap<string, BuildRecord>;
  startedAt: Date;
  endedAt: Date;
  command: string;
  git: Provenance["git"];
}): Promise<Provenance> {
  const tool = toolInfo();
  const packages: Record<string, string> = {};
  const targets: Provenance["targets"] = {};
  for (const t of [...args.targets].sort((a, b) => (a.name < b.name ? -1 : 1))) {
    targets[t.name] = t.package ? { label: t.label, package: t.package } : { label: t.label };
    const built = args.builds?.get(t.name);
    if (t.package)
      packages[t.package] =
        (t.build
          ? built?.resolved && resolvedVersion(built.resolved, t.package)
          : t.resolved
            ? resolvedVersionAt(t.resolved, t.package)
            : installedPackageVersion(t.package)) ?? (t.build && !built ? "not built" : "not installed");
  }
  for (const p of args.clientPackages ?? []) packages[p] = installedPackageVersion(p) ?? "not installed";
  const cpu = cpus();
  return {
    schemaVersion: SCHEMA_VERSION,
    tool: { name: tool.name, version: tool.version },
    git: args.git,
    matrix: { file: args.matrixFile, sha256: args.matrixSha256 },
    ...(args.report ? { report: args.report } : {}),
    ...(args.clients ? { clients: args.clients } : {}),
    packages: Object.fromEntries(Object.entries(packages).sort(([a], [b]) => (a < b ? -1 : 1))),
    targets,
    ...(args.flows ? { flows: args.flows } : {}),
    tokenizers: tokenizerNames(),
    ...(args.builds?.size ? { builds: buildsProvenance(args.builds) } : {}),
    node: process.version,
    os: { platform: platform(), release: release(), arch: arch() },
    cpu: { model: cpu[0]?.model ?? "unknown", cores: cpu.length, clockTicksPerSecond: clockTicks() },
    startedAt: args.startedAt.toISOString(),
    endedAt: args.endedAt.toISOString(),
    command: args.command,
  };
}

/** Clock ticks per second (`getconf CLK_TCK`), the unit of utime/stime in /proc; 0 if unknown. */
export function clockTicks(): number {
  try {
    return Number(execaSync("getconf", ["CLK_TCK"]).stdout.trim()) || 0;
  } catch {
    return 0;
  }
}

/** Version of `pkg` in the resolved set at `src` (a target's own `resolved:`), or undefined when the set cannot be read or lacks it. */
function resolvedVersionAt(src: ResolvedSource, pkg: string): string | undefined {
  try {
    return resolvedVersion(readResolved(src), pkg);
  } catch {
    return undefined;
  }
}
