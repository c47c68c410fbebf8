/**
 * Checks before any run starts, so a matrix naming a command that cannot start gets one clear
 * line instead of a matrix full of identical failures: each target command's program must be
 * found (on PATH, or as a path relative to the matrix folder), and a `node` script argument must
 * exist.
 */
import { accessSync, constants, existsSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join, resolve } from "node:path";
import { UserError } from "../errors.js";
import type { Configuration, Matrix } from "../matrix/types.js";

/** Is `file` an executable regular file? */
function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** Resolve a program name like a shell would (a name with `/` relative to `cwd`, else PATH). */
export function findProgram(program: string, cwd: string): string | undefined {
  if (program.includes("/")) {
    const f = isAbsolute(program) ? program : resolve(cwd, program);
    return executable(f) ? f : undefined;
  }
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && executable(join(dir, program))) return join(dir, program);
  }
  return undefined;
}

/**
 * Check the commands of every target and transport the configurations use.
 * @throws UserError `matrix: targets.<name>.<transport>.argv[i]: what — fix` for a program not
 *   found, or a `node` script that does not exist (relative to the matrix folder)
 */
export function checkCommands(matrix: Matrix, configs: readonly Configuration[]): void {
  const cwd = dirname(matrix.file);
  const seen = new Set<string>();
  for (const c of configs) {
    const name = c.values.target!;
    const transport = c.values.transport as "stdio" | "http";
    const key = `${name}.${transport}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const cmd = matrix.targets[name]?.commands[transport];
    if (!cmd) continue;
    const where = `${matrix.file}: targets.${name}.${transport}.argv`;
    const program = cmd.argv[0] ?? "";
    if (program === "") throw new UserError(`${where}: empty command — give the program and its arguments, e.g. [node, server.js]`);
    if (program.includes("{")) continue;
    if (program !== "node" && !findProgram(program, cwd)) {
      throw new UserError(`${where}[0]: program "${program}" not found ${program.includes("/") ? `at ${resolve(cwd, program)}` : "on PATH"} — fix the command or install the program`);
    }
    const script = cmd.argv[1];
    if (program === "node" && script && !script.startsWith("-") && !script.includes("{") && !existsSync(resolve(cwd, script))) {
      throw new UserError(`${where}[1]: script ${script} not found (looked in ${cwd}) — fix the path${script.startsWith("dist/") ? " or build first: npm run build" : ""}`);
    }
  }
}
