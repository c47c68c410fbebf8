/**
 * What `render` wrote into a site folder: `.wirecost-site.json` beside the pages, so that the
 * next render of the same results folder removes the pages it no longer writes (a configuration
 * or report gone from the results) and nothing else. The file:
 *
 *   { "schemaVersion": 2,
 *     "files": { "index.html": { "sha256": "<hex of the bytes written>", "results": "../results" }, … } }
 *
 * `results` is the results folder the page was rendered from, relative to the site folder (so a
 * committed site's manifest reads the same in every clone). A file is removed only when render
 * wrote it (it is in the manifest), from the results folder rendered now, this render does not
 * write it, and it still holds the bytes render wrote (a file edited since is kept, and said so).
 * A file of a page's name that no render wrote (not in the manifest) is not replaced: render
 * refuses, unless it holds the very bytes the page would (generators/render.ts).
 * Pages rendered from another results folder into the same site (two `wirecost measure` runs
 * sharing one site folder) are left as they are, and stay in the manifest. Schema 1 (a digest per
 * name, no results folder) is read as rendered from the results folder rendered now, as it was
 * used. The site's pages are flat: a name in the manifest is one file name, never a path.
 */
import { createHash } from "node:crypto";
import { existsSync, lstatSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { UserError } from "../format/errors.js";
import { writeAtomic } from "../format/files.js";

/** The manifest's file name in the site folder. */
export const SITE_MANIFEST = ".wirecost-site.json";
/** The manifest's schema version this wirecost writes; it reads this one and 1. */
const MANIFEST_VERSION = 2;

/** One page render wrote: the sha256 hex of its bytes, and the results folder it came from (relative to the site; undefined: schema 1, not recorded). */
export interface SitePage {
  sha256: string;
  results?: string;
}

/** Page file name → what render wrote there. */
export type SiteFiles = Map<string, SitePage>;

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
 * @throws UserError naming the manifest (and key) when it cannot be read, is not JSON, is of another schema version,
 *   or names something that is not a plain file name with a sha256 (fix: delete it; the next
 *   render then removes nothing and writes it anew)
 */
export function readSiteManifest(site: string): SiteFiles {
  const file = join(site, SITE_MANIFEST);
  if (!existsSync(file)) return new Map();
  const bad = (problem: string, key?: string) =>
    new UserError({
      file,
      key,
      problem,
      fix: `delete ${file}: the next render removes nothing, writes the manifest anew, and replaces no page that differs from what it writes`,
    });
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw bad(`cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw bad(`not JSON (${(e as Error).message})`);
  }
  if (typeof json !== "object" || json === null || Array.isArray(json)) throw bad("not a JSON object");
  const { schemaVersion, files } = json as { schemaVersion?: unknown; files?: unknown };
  if (schemaVersion !== 1 && schemaVersion !== MANIFEST_VERSION)
    throw bad(`is ${JSON.stringify(schemaVersion)}, this wirecost reads 1 and ${MANIFEST_VERSION}`, "schemaVersion");
  if (typeof files !== "object" || files === null || Array.isArray(files)) throw bad("expected an object of file name → page", "files");
  const out: SiteFiles = new Map();
  const isDigest = (d: unknown): d is string => typeof d === "string" && /^[0-9a-f]{64}$/.test(d);
  for (const [name, entry] of Object.entries(files)) {
    if (!isPageName(name)) throw bad(`${JSON.stringify(name.slice(0, 60))} is not the name of a file in the site folder`, "files");
    if (schemaVersion === 1) {
      if (!isDigest(entry)) throw bad("expected a sha256 hex digest", `files.${name}`);
      out.set(name, { sha256: entry });
      continue;
    }
    const { sha256, results } = (typeof entry === "object" && entry !== null ? entry : {}) as { sha256?: unknown; results?: unknown };
    if (!isDigest(sha256)) throw bad("expected a sha256 hex digest", `files.${name}.sha256`);
    if (typeof results !== "string" || results === "") throw bad("expected the results folder the page came from", `files.${name}.results`);
    out.set(name, { sha256, results });
  }
  return out;
}

/**
 * Remove what the previous render of the same results folder wrote and this one did not, then
 * record what this one wrote beside the pages other results folders' renders wrote.
 * @param site the site folder, its pages already written
 * @param before the previous manifest ({@link readSiteManifest}, read before the pages were written)
 * @param now the files this render wrote, name → sha256 hex
 * @param results the results folder rendered, relative to `site` (e.g. `../results`)
 * @returns the names removed, and the names kept because they changed since render wrote them (sorted)
 * @throws the fs error of a removal or of writing the manifest (the command line names `--site`)
 */
export function updateSiteManifest(site: string, before: SiteFiles, now: Map<string, string>, results: string): { removed: string[]; kept: string[] } {
  const removed: string[] = [];
  const kept: string[] = [];
  const record: SiteFiles = new Map();
  for (const [name, page] of [...before].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (now.has(name)) continue;
    const path = join(site, name);
    if (!existsSync(path)) continue;
    // Another results folder's page: not this render's to remove; recorded as it was.
    if (page.results !== undefined && page.results !== results) {
      record.set(name, page);
      continue;
    }
    if (!lstatSync(path).isFile() || siteDigest(readFileSync(path)) !== page.sha256) {
      kept.push(name);
      continue;
    }
    rmSync(path);
    removed.push(name);
  }
  for (const [name, sha256] of now) record.set(name, { sha256, results });
  const files = Object.fromEntries([...record].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  writeAtomic(join(site, SITE_MANIFEST), `${JSON.stringify({ schemaVersion: MANIFEST_VERSION, files }, null, 1)}\n`);
  return { removed, kept };
}
