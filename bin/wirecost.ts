#!/usr/bin/env node
/**
 * The wirecost command line: a thin layer over the library (runner/index.ts, generators/render.ts);
 * its commands and options are defined in bin/program.ts. Errors a user can fix print one line
 * and exit 1: a UserError, and a file-system error the user can fix (a read-only or full disk, no
 * permission, a file where a folder is wanted), named by the option or argument whose path it is
 * under (format/errors.ts fileSystemError). An interruption before any run (runner/errors.ts
 * Interrupted: ^C during a build) prints one line and exits 130. Anything else is a bug and prints
 * a stack.
 */
import { resolve, sep } from "node:path";
import { buildProgram, namedPaths } from "./program.js";
import { fileSystemError } from "../format/errors.js";

/** The option or argument of the command line whose path `path` is, or is under (the longest match). */
function namedFor(path: string | undefined): { option: string; path: string } | undefined {
  if (path === undefined) return undefined;
  const p = resolve(path);
  const hits = namedPaths.filter(([, v]) => p === resolve(v) || p.startsWith(resolve(v) + sep));
  const best = hits.sort((a, b) => resolve(b[1]).length - resolve(a[1]).length)[0];
  return best ? { option: best[0], path: best[1] } : undefined;
}

try {
  await buildProgram().parseAsync(process.argv);
} catch (e) {
  // ^C (or SIGTERM) while a build or a probe was under way, before any run: one line, exit 130.
  if (e instanceof Error && e.name === "Interrupted") {
    process.stderr.write(`wirecost: ${e.message} — nothing was measured; run the same command again to start over\n`);
    process.exit(130);
  }
  const user = e instanceof Error && e.name === "UserError" ? e : fileSystemError(e, namedFor((e as NodeJS.ErrnoException).path));
  if (user) {
    process.stderr.write(`wirecost: ${user.message}\n`);
    process.exit(1);
  }
  throw e;
}
