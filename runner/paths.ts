/** Locations inside the installed package. */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(d, "package.json"))) {
    const up = dirname(d);
    if (up === d) throw new Error("wirecost: package.json not found above " + fileURLToPath(import.meta.url));
    d = up;
  }
  return d;
}

/** Absolute path of the wirecost package root (the folder holding package.json). */
export const repoRoot: string = findRoot();

/**
 * Folder of target builds (`.wirecost/build/` under the wirecost root, git-ignored): one folder per
 * built target, `{build}` in its commands. `WIRECOST_BUILD_ROOT` moves it (tests use a scratch folder).
 */
export function buildRoot(): string {
  const env = process.env.WIRECOST_BUILD_ROOT;
  return env ? resolve(env) : resolve(repoRoot, ".wirecost", "build");
}

/** Folder of build caches kept across rebuilds (`.wirecost/cache/<target>`: cargo's target dir, pip's cache), beside {@link buildRoot}. */
export function buildCacheRoot(): string {
  return resolve(buildRoot(), "..", "cache");
}
