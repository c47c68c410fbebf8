/** A file-name-safe stem for a configuration id, shared by page names and scratch folders. */
import { createHash } from "node:crypto";

/**
 * `id` itself when it is `[A-Za-z0-9_-]` followed by up to 150 of `[A-Za-z0-9._-]` with no `..`,
 * else the first 16 hex digits of sha256(id), so no id can escape the folder it is joined to.
 * @param id configuration id
 * @returns the stem (never empty, never containing `/`)
 */
export function idStem(id: string): string {
  return /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,150}$/.test(id) && !id.includes("..") ? id : createHash("sha256").update(id).digest("hex").slice(0, 16);
}
