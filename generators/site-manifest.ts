/**
 * What `render` wrote into a site folder: `.wirecost-site.json` beside the pages, so that the
 * next render removes the pages it no longer writes (a configuration or report gone from the
 * results) and nothing else. The file:
 *
 *   { "schemaVersion": 1, "files": { "index.html": "<sha256 hex of the bytes written>", … } }
 *
 * A file is removed only when render wrote it (it is in the manifest), render does not write it
 * now, and it still holds the bytes render wrote (a file edited since is kept, and said so). The
 * site's pages are flat: a name in the manifest is one file name, never a path.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../format/errors.js";
import { writeAtomic } from "../format/files.js";

/** The manifest's file name in the site folder. */
export const SITE_MANIFEST = ".wirecost-site.json";
/** The manifest's schema version (the only one this wirecost reads). */
const MANIFEST_VERSION = 1;

/** Page file name → sha256 hex of the bytes render wrote. */
export type SiteFiles = Map<string, string>;

/** sha256 hex of `content` (a string as render writes it, UTF-8; or a file's bytes). */
export function siteDigest(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** Is `name` one file name in the site folder (not a path, not the manifest itself)? */
function isPageName(name: string): boolean {
  return name !== "" && name !== "." && name !== ".." && name !== SITE_MANIFEST && !/[/\\\u0000-\u001f\u007f]/.test(name);
}

/**
 * The files a previous render wrote into `site` (empty when it has no manifest: a site rendered
 * before manifests existed, or a new folder).
 * @throws UserError naming the manifest (and key) when it is not JSON, of another schema version,
 *   or names something that is not a plain file name with a sha256 (fix: delete it; the next
 *   render then removes nothing and writes it anew)
 */
export function readSiteManifest(site: string): SiteFiles {
  const file = join(site, SITE_MANIFEST);
  if (!existsSync(file)) return new Map();
  const bad = (problem: string, key?: string) =>
    new UserError({ file, key, problem, fix: `delete ${file}: the next render removes nothing and writes the manifest anew` });
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw bad("not a JSON object");
  const { schemaVersion, files } = json as { schemaVersion?: unknown; files?: unknown };
  if (schemaVersion !== MANIFEST_VERSION) throw bad(`is ${JSON.stringify(schemaVersion)}, this wirecost reads ${MANIFEST_VERSION}`, "schemaVersion");
  if (typeof files !== "object" || files === null || Array.isArray(files)) throw bad("expected an object of file name → sha256", "files");
  const out: SiteFiles = new Map();
  for (const [name, digest] of Object.entries(files)) {
    if (!isPageName(name)) throw bad(`${JSON.stringify(name.slice(0, 60))} is not the name of a file in the site folder`, "files");
    if (typeof digest !== "string" || !/^[0-9a-f]{64}$/.test(digest)) throw bad("expected a sha256 hex digest", `files.${name}`);
    out.set(name, digest);
  }
  return out;
}

/**
 * Remove what the previous render wrote and this one did not, then record what this one wrote.
 * @param site the site folder, its pages already written
 * @param before the previous manifest ({@link readSiteManifest}, read before the pages were written)
 * @param now the files this render wrote, name → sha256
 * @returns the names removed, and the names kept because they changed since render wrote them (sorted)
 * @throws the fs error of a removal or of writing the manifest (the command line names `--site`)
 */
export function updateSiteManifest(site: string, before: SiteFiles, now: SiteFiles): { removed: string[]; kept: string[] } {
  const removed: string[] = [];
  const kept: string[] = [];
  for (const [name, digest] of [...before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (now.has(name)) continue;
    const path = join(site, name);
    if (!existsSync(path)) continue;
    if (!lstatSync(path).isFile() || siteDigest(readFileSync(path)) !== digest) {
      kept.push(name);
      continue;
    }
    rmSync(path);
    removed.push(name);
  }
  const files = Object.fromEntries([...now].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeAtomic(join(site, SITE_MANIFEST), `${JSON.stringify({ schemaVersion: MANIFEST_VERSION, files }, null, 1)}\n`);
  return { removed, kept };
}
