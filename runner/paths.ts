/** Locations inside the installed package. */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
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

/** Name and version of this wirecost (from its package.json). */
export function toolInfo(): { name: string; version: string } {
  const tool = JSON.parse(readFileSync(resolve(repoRoot, "package.json"), "utf8")) as { name: string; version: string };
  return { name: tool.name, version: tool.version };
}

/**
 * Folder of target builds (`.wirecost/build/` under the wirecost root, git-ignored): one folder per
 * built target, `{build}` in its commands. `WIRECOST_BUILD_ROOT` moves it (tests use a scratch folder).
 */
export function buildRoot(): string {
  const env = process.env.WIRECOST_BUILD_ROOT;
  return env ? resolve(env) : resolve(repoRoot, ".wirecost", "build");
}

/**
 * Folder of build caches kept across rebuilds and across clones (`<target>/` in it: cargo's target
 * folder, the checked wheels and jars; `_go-build/`: Go's build cache): `WIRECOST_CACHE_ROOT` when
 * set (a relative one from the working folder), else `wirecost/` in the user's cache folder
 * (`$XDG_CACHE_HOME` when absolute, else `~/.cache`, as the XDG Base Directory specification
 * places non-essential cached data and ignores a relative `XDG_CACHE_HOME`). Outside the clone, so a second
 * clone on the same machine builds its targets from what the first one compiled: each tool keys
 * what it keeps by its inputs (cargo by crate, version, features and compiler; Go by content;
 * wheels and jars checked by sha256), and locks or writes its entries atomically, so clones
 * building at once share it. A build's output stays in {@link buildRoot}.
 */
/**
 * Where {@link buildCacheRoot} took its folder from, for messages: `WIRECOST_CACHE_ROOT`,
 * `XDG_CACHE_HOME` or `~/.cache`.
 */
export function buildCacheRootSource(env: NodeJS.ProcessEnv = process.env): string {
  return env.WIRECOST_CACHE_ROOT ? "WIRECOST_CACHE_ROOT" : env.XDG_CACHE_HOME?.startsWith("/") ? "XDG_CACHE_HOME" : "~/.cache";
}

export function buildCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.WIRECOST_CACHE_ROOT) return resolve(env.WIRECOST_CACHE_ROOT);
  // The specification ignores a relative XDG_CACHE_HOME.
  const userCache = env.XDG_CACHE_HOME?.startsWith("/") ? env.XDG_CACHE_HOME : resolve(homedir(), ".cache");
  return resolve(userCache, "wirecost");
}
