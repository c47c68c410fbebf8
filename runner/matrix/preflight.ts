/**
 * Preflight: before anything runs (`expand`, `run`, the per-call engine), check that what the
 * configurations need is here — each target package resolves within its semver range, each
 * required command is on PATH, and each target command can start (its program is found, a `node`
 * script exists) — so a matrix that cannot run gets one clear line instead of a matrix full of
 * identical failures.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import semver from "semver";
import { UserError } from "../../format/errors.js";
import { repoRoot } from "../paths.js";
import { readBuildRecord } from "../build/build.js";
import { findProgram } from "../build/toolchain.js";
import { readResolved, resolvedVersion, validVersionRange, versionSatisfies, type ResolvedSet } from "../build/resolved.js";
import type { Configuration, Matrix, Match, Target } from "./types.js";
import { targetKey } from "./target-of.js";

/** Installed version of npm package `pkg` under the wirecost root's node_modules, or undefined. */
export function installedPackageVersion(pkg: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(resolve(repoRoot, "node_modules", pkg, "package.json"), "utf8")) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

function matchesValues(when: Match | undefined, v: Record<string, string>): boolean {
  return !when || Object.entries(when).every(([k, vs]) => vs.includes(v[k]!));
}

/**
 * Check the targets that `configs` use: package installed and within `version` (semver range),
 * every `requires` command on PATH (for the configurations its `when` matches), and the commands
 * of the transports they run (see {@link checkCommands}).
 * @param configs the configurations about to run (targets no configuration uses are not checked)
 * @throws UserError `file:line:col: …` naming the target, the resolved and the wanted version, the
 *   missing command, or the program or script that is not there
 */
export function preflight(m: Matrix, configs: Configuration[]): void {
  const at = (...p: (string | number)[]) => (m.locate ? m.locate(...p) : m.file);
  const byTarget = new Map<string, Configuration[]>();
  for (const c of configs) {
    const t = targetKey(m, c.values);
    const list = byTarget.get(t);
    if (list) list.push(c);
    else byTarget.set(t, [c]);
  }
  for (const [name, cs] of byTarget) {
    const t = m.targets[name]!;
    if (t.build) {
      checkBuilt(t, at, "targets", t.family !== undefined ? (m.targets[t.family]?.versions?.indexOf(t.version ?? "") ?? -1) : -1);
    } else if (t.resolved) {
      checkResolved(t, at);
    } else if (t.package && t.version) {
      if (!semver.validRange(t.version))
        throw new UserError(`${at("targets", name, "version")}: "${t.version}" is not a semver range — write e.g. 2.4.0, ^2.4.0 or >=2 <3`);
      const got = installedPackageVersion(t.package);
      if (!got)
        throw new UserError(
          `${at("targets", name, "package")}: target ${name} needs npm package ${t.package} (${t.version}), which is not installed — run npm ci, or npm i -E ${t.package}@<version>; for a package of another registry (PyPI, crates, Go) give the target resolved: {from: pip|cargo|go, path} (e.g. {from: pip, path: .venv/bin/python})`,
        );
      if (!semver.satisfies(got, t.version))
        throw new UserError(
          `${at("targets", name, "version")}: target ${name} needs ${t.package} ${t.version} but ${got} is installed — install a matching version or change targets.${name}.version`,
        );
    }
    for (const r of t.requires) {
      const hit = cs.find((c) => matchesValues(r.when, c.values));
      if (hit && !findProgram(r.command, process.cwd()))
        throw new UserError(
          `${r.at}: target ${name} requires the command "${r.command}" (for ${hit.id}), which is not on PATH — install it, or leave those configurations out (--only)`,
        );
    }
  }
  for (const name of new Set(configs.map((c) => c.values.client ?? ""))) {
    const client = m.clients?.[name];
    if (client) checkBuilt(client, at, "clients");
  }
  checkCommands(m, configs);
}

/**
 * Check a built target's or declared client's `package` against the resolved set its build
 * recorded (PyPI: PEP 440; crates, Go and npm: semver). A target not built yet is not checked here: `wirecost run` builds it
 * first, and `expand` lists it without building.
 * @param section where `t` is declared in the matrix (`targets` or `clients`)
 * @param versionIndex for a listed version's entry, its index in the family's `versions:` (where the error points)
 * @throws UserError naming the target, the resolved and the wanted version
 */
function checkBuilt(
  t: Pick<Target, "name" | "build" | "package" | "version" | "family">,
  at: (...p: (string | number)[]) => string,
  section: "targets" | "clients" = "targets",
  versionIndex = -1,
): void {
  const who = `${section === "targets" ? "target" : "client"} ${t.name}`;
  const rec = readBuildRecord(t);
  if (!rec || !t.package || !t.version) return;
  const set = rec.resolved;
  if (!set)
    throw new UserError(
      `${at(section, t.name, "package")}: ${who} names package ${t.package}, but its build declares no resolved: set to check it against — add build.resolved ({from: pip|cargo|go|npm, path})`,
    );
  if (!validVersionRange(set.ecosystem, t.version))
    throw new UserError(
      `${at(section, t.name, "version")}: "${t.version}" is not a ${set.ecosystem === "pypi" ? "PEP 440 specifier" : "semver range"} — write e.g. ${set.ecosystem === "pypi" ? "2.2.0, ==2.2.0 or >=2,<3" : set.ecosystem === "go" ? "v1.8.0 or >=1.8.0 <2" : "0.14.1 or ^0.14"}`,
    );
  const got = resolvedVersion(set, t.package);
  if (!got)
    throw new UserError(
      `${at(section, t.name, "package")}: ${who} needs ${t.package} (${t.version}), which its build did not resolve (${Object.keys(set.packages).length} packages in ${relative(process.cwd(), t.build!.dir)}) — fix the package name or the lock file`,
    );
  if (!versionSatisfies(set.ecosystem, got, t.version)) {
    // A listed version (`versions:`, entry `<family>@<version>`): its YAML is the family's versions list, its fix the build's per-version input.
    if (section === "targets" && t.family !== undefined)
      throw new UserError(
        `${versionIndex >= 0 ? at("targets", t.family, "versions", versionIndex) : at("targets", t.family, "versions")}: target ${t.name} needs ${t.package} ${t.version} but its build resolved ${got} — make the build of ${t.version} install that release (its build.command and build.inputs take {version}; for npm, the lock written by bash targets/mcp-ts-releases/lock.sh), or fix targets.${t.family}.versions`,
      );
    throw new UserError(
      `${at(section, t.name, "version")}: ${who} needs ${t.package} ${t.version} but its build resolved ${got} — change the lock file or ${section}.${t.name}.version`,
    );
  }
}

/**
 * Check a target without a build against the resolved set its `resolved:` names (read now: e.g.
 * the distributions of a venv the user installed the server into), as {@link checkBuilt} checks a
 * built one.
 * @throws UserError when the set cannot be read, or names another version or not the package
 */
function checkResolved(t: Target, at: (...p: (string | number)[]) => string): void {
  if (!t.package || !t.version) return;
  let set: ResolvedSet;
  try {
    set = readResolved(t.resolved!);
  } catch (e) {
    throw new UserError(`${at("targets", t.name, "resolved")}: target ${t.name}'s resolved set cannot be read: ${(e as Error).message} — fix resolved.path`);
  }
  if (!validVersionRange(set.ecosystem, t.version))
    throw new UserError(
      `${at("targets", t.name, "version")}: "${t.version}" is not a ${set.ecosystem === "pypi" ? "PEP 440 specifier" : "version range"} of ${set.ecosystem}`,
    );
  const got = resolvedVersion(set, t.package);
  if (!got)
    throw new UserError(
      `${at("targets", t.name, "package")}: target ${t.name} needs ${t.package} (${t.version}), which ${t.resolved!.path} does not hold — install it there, or fix the package name or resolved.path`,
    );
  if (!versionSatisfies(set.ecosystem, got, t.version))
    throw new UserError(
      `${at("targets", t.name, "version")}: target ${t.name} needs ${t.package} ${t.version} but ${got} is installed — install a matching version or change targets.${t.name}.version`,
    );
}

/** Is `cmd`'s program inside a target build folder that does not exist yet (built by `wirecost run`)? */
function unbuilt(t: Target | undefined): boolean {
  return !!t?.build && !existsSync(t.build.dir);
}

/**
 * Check the command of every target and transport that `configs` use: its program must be found
 * (on PATH, or as a path relative to the matrix folder; `node` is this Node binary), and the script
 * of a `node` command must exist (relative to the matrix folder). Arguments with placeholders are
 * not checked.
 * @throws UserError `file:line:col: …` at the argv item (or `file: targets.<name>.<transport>.argv[i]`
 *   for a matrix built in code) for an empty command, a program not found, or a missing script
 */
export function checkCommands(m: Matrix, configs: readonly Configuration[]): void {
  const cwd = dirname(m.file);
  const seen = new Set<string>();
  for (const c of configs) {
    const name = targetKey(m, c.values);
    const transport = c.values.transport as "stdio" | "http";
    const key = `${name}.${transport}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const cmd = m.targets[name]?.commands[transport];
    if (!cmd || unbuilt(m.targets[name])) continue;
    const at = (i: number) => (m.locate ? m.locate("targets", name, transport, "argv", i) : `${m.file}: targets.${key}.argv[${i}]`);
    const program = cmd.argv[0] ?? "";
    if (program === "")
      throw new UserError(`${at(0)}: target ${name} has an empty ${transport} command — give the program and its arguments, e.g. [node, server.js]`);
    if (program.includes("{")) continue;
    if (program !== "node" && !findProgram(program, cwd)) {
      throw new UserError(
        `${at(0)}: program "${program}" of target ${name} (${transport}) not found ${program.includes("/") ? `at ${resolve(cwd, program)}` : "on PATH"} — fix the command or install the program`,
      );
    }
    const script = cmd.argv[1];
    if (program === "node" && script && !script.startsWith("-") && !script.includes("{") && !existsSync(resolve(cwd, script))) {
      throw new UserError(
        `${at(1)}: script ${script} of target ${name} (${transport}) not found (looked in ${cwd}) — fix the path${script.startsWith("dist/") ? " or build first: npm run build" : ""}`,
      );
    }
  }
}
