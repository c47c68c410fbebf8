/**
 * The `builds` record that results files carry for targets built before they ran (provenance.json,
 * timings-run.json, percall-run.json; written by runner/results/provenance.ts `buildsProvenance`):
 * target name → ecosystem, toolchain versions and the full resolved dependency set.
 */
import { UserError } from "./errors.js";
import { compareCodeUnits } from "./order.js";

/** One built target as the pages show it. */
export interface TargetBuildInfo {
  target: string;
  /** `pypi`, `crates` or `go`; "" when the build declared no resolved set. */
  ecosystem: string;
  /** Tool → version line, sorted by tool. */
  toolchain: ReadonlyArray<{ tool: string; version: string }>;
  /** Resolved packages, sorted by name. */
  packages: ReadonlyArray<{ name: string; version: string }>;
}

const FIX = "regenerate the results with `npx wirecost run` (builds are recorded since targets can be built)";

function stringMap(v: unknown, file: string, key: string): Array<[string, string]> {
  if (typeof v !== "object" || v === null || Array.isArray(v)) throw new UserError({ file, key, problem: "expected an object of name → version", fix: FIX });
  const out = Object.entries(v as Record<string, unknown>).map(([k, x]): [string, string] => {
    if (typeof x !== "string") throw new UserError({ file, key: `${key}.${k}`, problem: "expected a version string", fix: FIX });
    return [k, x];
  });
  return out.sort((a, b) => compareCodeUnits(a[0], b[0]));
}

/**
 * Read the optional `builds` value of a results file.
 * @param v the value (undefined when the key is absent: no target was built)
 * @param file the file it came from, for errors
 * @returns the builds sorted by target name; empty when absent
 * @throws UserError naming the file and key when the value has the wrong shape
 */
export function readBuilds(v: unknown, file: string): TargetBuildInfo[] {
  if (v === undefined) return [];
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw new UserError({ file, key: "builds", problem: "expected an object of target name → build", fix: FIX });
  return Object.entries(v as Record<string, unknown>)
    .sort((a, b) => compareCodeUnits(a[0], b[0]))
    .map(([target, b]) => {
      const rec = (typeof b === "object" && b !== null ? b : {}) as Record<string, unknown>;
      return {
        target,
        ecosystem: typeof rec.ecosystem === "string" ? rec.ecosystem : "",
        toolchain: stringMap(rec.toolchain ?? {}, file, `builds.${target}.toolchain`).map(([tool, version]) => ({ tool, version })),
        packages: stringMap(rec.packages ?? {}, file, `builds.${target}.packages`).map(([name, version]) => ({ name, version })),
      };
    });
}
