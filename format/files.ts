/** Atomic writes: every results file is written whole or not at all. */
import { existsSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";

/**
 * Write `data` to `path` atomically: a temp file in the same folder, then rename. Creates folders.
 * @throws the fs error (EACCES, EROFS, ENOSPC, ENOTDIR, …, with its `path`: `path` itself when
 *   fs gave none, as for a full disk) when the folder cannot
 *   be written; the old file stays and no temp file is left. The command line turns it into one
 *   line naming the option whose folder it is (format/errors.ts fileSystemError).
 */
export function writeAtomic(path: string, data: string | Buffer): void {
  makeFolder(dirname(path));
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    try {
      rmSync(tmp, { force: true });
    } catch {
      /* the folder refuses that too: the first error says why */
    }
    // write(2) failing (ENOSPC, EDQUOT, EIO) throws without a path: name the file being written.
    const err = e as NodeJS.ErrnoException;
    if (err.path === undefined) err.path = path;
    throw e;
  }
}

/**
 * Create folder `dir` and its missing parents, one `mkdir` each from the nearest that exists.
 * Node's `mkdirSync(dir, { recursive: true })` never returns where `mkdir` answers ENOENT under a
 * parent that exists (a path inside /proc, e.g. `--results /proc/self/x`: it retries forever);
 * here that is the fs error of the first folder that cannot be made.
 * @throws the fs error (ENOENT, EACCES, EROFS, ENOTDIR, …) with `path` set to `dir`
 */
export function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  if (missing.length === 0 && !statSync(dir).isDirectory()) {
    // What mkdir -p says of a file where the folder should be.
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${dir}'`), { code: "EEXIST", errno: -17, syscall: "mkdir", path: dir });
  }
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === "EEXIST") continue;
      err.path = dir; // as mkdir -p reports it: the folder asked for
      throw err;
    }
  }
}
