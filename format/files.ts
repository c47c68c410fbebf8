/** Atomic writes: every results file is written whole or not at all. */
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";

/**
 * Write `data` to `path` atomically: a temp file in the same folder, then rename. Creates folders.
 * @throws the fs error (EACCES, ENOSPC, …) when the folder cannot be written; the old file stays
 */
export function writeAtomic(path: string, data: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}
