/** Atomic writes: every results file is written whole or not at all. */
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Write `data` to `path` atomically: a temp file in the same folder, then rename. Creates folders.
 * @throws the fs error (EACCES, EROFS, ENOSPC, ENOTDIR, …, with its `path`: `path` itself when
 *   fs gave none, as for a full disk) when the folder cannot
 *   be written; the old file stays and no temp file is left. The command line turns it into one
 *   line naming the option whose folder it is (format/errors.ts fileSystemError).
 */
export function writeAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
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
