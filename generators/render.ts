/**
 * The `render` stage: a results folder in, a static site out (markdown and HTML per page, SVG
 * charts, one page per configuration). Reads only files; never imports `runner/`. Same results
 * (and predictions file and git history) in, byte-identical site out.
 *
 * The results folder and each folder directly under it are looked at; each one a report kind
 * recognises (reports/index.ts) becomes a report, and the index page lists them all.
 */
import { existsSync, lstatSync, readFileSync, readdirSync, statSync, type Stats } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileSystemError, UserError } from "../format/errors.js";
import { makeFolder, realPathOf, refuseOddEntries, writeAtomic, refuseNestedFolders } from "../format/files.js";
import { addPage } from "./reports/page-files.js";
import { INDEX_ID, INDEX_TITLE, indexMarkdown, type IndexEntry } from "./pages/home.js";
import { REPORT_KINDS } from "./reports/index.js";
import { resultKindOf } from "../format/kinds.js";
import { loadResults } from "./results/load.js";
import { readSiteManifest, SITE_MANIFEST, siteDigest, updateSiteManifest, type SiteFiles, type SitePage } from "./site-manifest.js";

/** Where to read results and where to write the site. */
export interface RenderOptions {
  /** Results folder: a report's files (e.g. `summary.tsv`, `medians.tsv`, `provenance.json`), and/or one folder per further report. */
  results: string;
  /**
   * Site folder to write into; created if missing. Pages an earlier render of the same results
   * folder wrote there and this one does not are removed (the manifest `.wirecost-site.json`,
   * site-manifest.ts); pages of other results folders, and every other file, are left alone.
   */
  site: string;
  /**
   * Predictions file of the wire report; default `predictions.yaml` beside its results folder (in
   * its parent folder). When the default is missing the report has no predictions section; an
   * explicit path that is missing is a user error.
   */
  predictions?: string;
}

/** What a render wrote. */
export interface RenderReport {
  /** The site folder, as passed in `RenderOptions.site`. */
  site: string;
  /** Files written, relative to `site`, sorted (e.g. `index.html`, `index.md`, …); the manifest not among them. */
  files: string[];
  /** Pages an earlier render wrote that this one no longer writes, removed (sorted). */
  removed: string[];
  /** Such pages kept because they were changed since render wrote them (sorted). */
  kept: string[];
  /**
   * When the site's index was rendered from another results folder (relative to the site), that
   * folder: the index is kept as it is and this render's pages are not listed in it.
   */
  indexOf?: string;
}

/**
 * The line that says a site's index was kept (`RenderReport.indexOf`): whose reports it lists, and
 * that this render's pages are not among them.
 * @param site the site folder as given
 * @param indexOf the results folder the index was rendered from, relative to the site
 */
export function indexNote(site: string, indexOf: string): string {
  return `kept ${join(site, `${INDEX_ID}.md`)} and ${INDEX_ID}.html as they are: they list the reports of the results folder ${indexOf} (another render's), so this render's pages are not linked from them — open them by name`;
}

/**
 * The results folder and its direct sub-folders, sorted by name (the root first). Hidden folders
 * are not reports (`.wirecost-next/`: a re-run not yet swapped in, format/layout.ts STAGING_FOLDER).
 */
function candidateFolders(root: string): string[] {
  let names: string[] = [];
  try {
    names = readdirSync(root).sort();
  } catch {
    return [root];
  }
  return [
    root,
    ...names
      .filter((n) => !n.startsWith("."))
      .map((n) => join(root, n))
      .filter((d) => statSync(d).isDirectory()),
  ];
}

/**
 * Why an entry of the site folder named as a page may not be replaced by this render, or undefined
 * when it may: absent, the page's very bytes (`pageDigest`, its sha256), or the bytes a render wrote there (the manifest's
 * sha256) unchanged since. A file no render wrote, a page changed since render wrote it, and a
 * link, folder or any entry that is not a plain file are the user's, and stay.
 */
function replaceProblem(path: string, recorded: SitePage | undefined, pageDigest: string): string | undefined {
  let entry: Stats;
  try {
    entry = lstatSync(path);
  } catch {
    return undefined;
  }
  if (!entry.isFile())
    return `it is ${entry.isSymbolicLink() ? "a symbolic link" : entry.isDirectory() ? "a folder" : "not a plain file"}, which no render writes`;
  let digest: string;
  try {
    digest = siteDigest(readFileSync(path));
  } catch (e) {
    return `it cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (digest === pageDigest) return undefined;
  if (recorded === undefined) return `no render wrote it (it is not in ${SITE_MANIFEST})`;
  return digest === recorded.sha256 ? undefined : "it changed since a render wrote it";
}

/**
 * Refuse a render that would replace what is not its own in the site folder: for each page of
 * `files`, {@link replaceProblem}. Nothing is written when it refuses.
 * @throws UserError naming the first such entry and why, with how many more, and the fix
 */
function refuseReplacingOthers(site: string, files: readonly string[], before: SiteFiles, digests: ReadonlyMap<string, string>): void {
  const problems = files.flatMap((name) => {
    const problem = replaceProblem(join(site, name), before.get(name), digests.get(name)!);
    return problem === undefined ? [] : [{ name, problem }];
  });
  if (problems.length > 0)
    throw new UserError({
      file: join(site, problems[0]!.name),
      problem: `this render would replace it, and ${problems[0]!.problem}${problems.length > 1 ? `; so would ${problems.length - 1} more of the pages it writes` : ""}`,
      fix: "move it out of the site folder, or give --site a folder of its own",
    });
}

/**
 * Render every report found under `opts.results` and the index linking them, then remove the pages
 * an earlier render of the same results folder wrote into the site folder and this one does not
 * (site-manifest.ts). All
 * pages are built before any file is written, so a results error leaves the site folder untouched.
 * @throws UserError when a results folder holds a link, FIFO, socket or device where a results
 *   file belongs (format/files.ts refuseOddEntries), when no report is found (the message is that of the wire report's missing
 *   files), when a report's file is missing or malformed, or when two reports write the same page
 *   (e.g. two bytes reports with one slug), or when a page of the same name in the site folder was
 *   rendered from another results folder (site-manifest.ts; the index excepted: it is kept, see
 *   `RenderReport.indexOf`), or when it would replace an entry of the site folder that is not
 *   its own: a file no render wrote, a page changed since, a link or folder ({@link refuseReplacingOthers}), or when the site folder cannot be written (read-only,
 *   no permission, a file in the way: one line naming `--site` and the fix), or when its manifest
 *   is unreadable (one line naming it)
 */
export async function render(opts: RenderOptions): Promise<RenderReport> {
  // Pages written among the results files (or results read from the site) would mix the two.
  refuseNestedFolders({ option: "--site", path: opts.site }, [{ name: "results folder", path: opts.results }]);
  const outputs = new Map<string, string>();
  const entries: IndexEntry[] = [];
  for (const dir of candidateFolders(opts.results)) {
    // A link or FIFO among its results files is refused before anything is read (one line).
    refuseOddEntries(dir);
    const held = resultKindOf(dir);
    for (const kind of REPORT_KINDS) {
      if (kind.kind !== held) continue;
      const report = await kind.render(dir, { predictions: opts.predictions });
      for (const [name, content] of report.files) {
        if (name === `${INDEX_ID}.md` || name === `${INDEX_ID}.html`)
          throw new UserError({
            file: dir,
            problem: `the report writes ${name}, the site index's page`,
            fix: "give its matrix another `slug:` than index and run it again",
          });
        if (outputs.has(name))
          throw new UserError({
            file: dir,
            problem: `a second report writes ${name}`,
            fix: "keep one results folder per report under the results folder, and give bytes reports different titles or `slug:`s in their matrices",
          });
        outputs.set(name, content);
      }
      entries.push({ ...report.entry, folder: relative(opts.results, dir) || "." });
    }
  }
  if (entries.length === 0) loadResults(opts.results); // throws the UserError naming what is missing
  addPage(outputs, INDEX_ID, INDEX_TITLE, indexMarkdown(entries), "Generated by wirecost from its results folders.");
  if (outputs.has(SITE_MANIFEST)) throw new Error(`a report writes ${SITE_MANIFEST}, the site manifest's name`);
  const before = readSiteManifest(opts.site);
  // Real paths: the same results folder named through a link is the same folder.
  const from = relative(realPathOf(opts.site), realPathOf(opts.results)).split(sep).join("/") || ".";
  // A page another results folder's render wrote, still there, is not this render's to replace.
  const foreign = (name: string): string | undefined => {
    const page = before.get(name);
    return page?.results !== undefined && page.results !== from && existsSync(join(opts.site, name)) ? page.results : undefined;
  };
  const isIndex = (name: string) => name === `${INDEX_ID}.md` || name === `${INDEX_ID}.html`;
  const taken = [...outputs.keys()].filter((name) => !isIndex(name) && foreign(name) !== undefined).sort();
  if (taken.length > 0)
    throw new UserError({
      file: opts.site,
      problem: `${taken[0]}${taken.length > 1 ? ` (and ${taken.length - 1} more)` : ""} was rendered from the results folder ${foreign(taken[0]!)}, which a render of ${opts.results} would replace`,
      fix: "give --site a folder of its own for these results",
    });
  // The index of another results folder's render is kept as it is (said in `indexOf`): this render's pages are not listed in it.
  const indexOf = foreign(`${INDEX_ID}.md`) ?? foreign(`${INDEX_ID}.html`);
  const files = [...outputs.keys()].filter((name) => indexOf === undefined || !isIndex(name)).sort();
  // Each page's sha256, once: the check below and the manifest both take it.
  const now = new Map(files.map((name) => [name, siteDigest(outputs.get(name) ?? "")]));
  refuseReplacingOthers(opts.site, files, before, now);
  try {
    makeFolder(opts.site);
    // Each page written beside and renamed into place: a link or FIFO of that name in --site is
    // replaced, never written through (or waited on).
    for (const name of files) writeAtomic(join(opts.site, name), outputs.get(name) ?? "");
    return { site: opts.site, files, ...updateSiteManifest(opts.site, before, now, from), ...(indexOf !== undefined ? { indexOf } : {}) };
  } catch (e) {
    throw fileSystemError(e, { option: "--site", path: opts.site }) ?? e;
  }
}
