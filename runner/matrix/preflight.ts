/**
 * Preflight: before anything runs, check that what the configurations need is here — each target
 * package resolves within its semver range, and each required command is on PATH.
 */
import { accessSync, constants, readFileSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import semver from "semver";
import { UserError } from "../errors.js";
import { repoRoot } from "../paths.js";
import type { Configuration, Matrix, Match } from "./types.js";

/** Installed version of npm package `pkg` under the wirecost root's node_modules, or undefined. */
export function installedPackageVersion(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(resolve(repoRoot, "node_modules", pkg, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Whether `command` is an executable file on PATH (or a path to one). */
export function onPath(command: string, path = process.env.PATH ?? ""): boolean {
  const candidates = command.includes("/") ? [command] : path.split(delimiter).filter(Boolean).map((d) => join(d, command));
  return candidates.some((f) => {
    try {
      accessSync(f, constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function matchesValues(when: Match | undefined, v: Record<string, string>): boolean {
  return !when || Object.entries(when).every(([k, vs]) => vs.includes(v[k]!));
}

/**
 * Check the targets that `configs` use: package installed and within `version` (semver range),
 * and every `requires` command on PATH (for the configurations its `when` matches).
 * @param configs the configurations about to run (targets no configuration uses are not checked)
 * @throws UserError `file:line:col: …` naming the target, the resolved and the wanted version, or the missing command
 */
export function preflight(m: Matrix, configs: Configuration[]): void {
  const at = (...p: (string | number)[]) => (m.locate ? m.locate(...p) : m.file);
  const byTarget = new Map<string, Configuration[]>();
  for (const c of configs) {
    const t = c.values.target!;
    const list = byTarget.get(t);
    if (list) list.push(c);
    else byTarget.set(t, [c]);
  }
  for (const [name, cs] of byTarget) {
    const t = m.targets[name]!;
    if (t.package && t.version) {
      if (!semver.validRange(t.version)) throw new UserError(`${at("targets", name, "version")}: "${t.version}" is not a semver range — write e.g. 2.4.0, ^2.4.0 or >=2 <3`);
      const got = installedPackageVersion(t.package);
      if (!got) throw new UserError(`${at("targets", name, "package")}: target ${name} needs npm package ${t.package} (${t.version}), which is not installed — run npm ci, or npm i -E ${t.package}@<version>`);
      if (!semver.satisfies(got, t.version)) throw new UserError(`${at("targets", name, "version")}: target ${name} needs ${t.package} ${t.version} but ${got} is installed — install a matching version or change targets.${name}.version`);
    }
    for (const r of t.requires) {
      const hit = cs.find((c) => matchesValues(r.when, c.values));
      if (hit && !onPath(r.command)) throw new UserError(`${r.at}: target ${name} requires the command "${r.command}" (for ${hit.id}), which is not on PATH — install it, or leave those configurations out (--only)`);
    }
  }
}
