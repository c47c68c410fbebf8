/**
 * Atomic writes: every results file is written whole or not at all. Results folders hold plain
 * files and folders only: {@link refuseOddEntries}.
 */
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Dirent,
  type Stats,
} from "node:fs";
import { basename, dirname, isAbsolute, join, relative, resolve } from "node:path";
import { UserError } from "./errors.js";
import { RESULTS_FILES, RESULTS_FOLDERS, STAGING_FOLDER, TARGETS_DIR, planPath } from "./layout.js";

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
 * @returns the folders this call made (absolute paths, outermost first; empty when `dir` existed)
 * @throws the fs error (ENOENT, EACCES, EROFS, ENOTDIR, …) with `path` set to `dir`
 */
export function makeFolder(dir: string): string[] {
  const missing: string[] = [];
  for (let p = resolve(dir); !existsSync(p); p = dirname(p)) {
    missing.push(p);
    if (dirname(p) === p) break;
  }
  if (missing.length === 0 && !statSync(dir).isDirectory()) {
    // What mkdir -p says of a file where the folder should be.
    throw Object.assign(new Error(`EEXIST: file already exists, mkdir '${dir}'`), { code: "EEXIST", errno: -17, syscall: "mkdir", path: dir });
  }
  const made: string[] = [];
  for (const p of missing.reverse()) {
    try {
      mkdirSync(p);
      made.push(p);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err.code === "EEXIST") continue;
      err.path = dir; // as mkdir -p reports it: the folder asked for
      throw err;
    }
  }
  return made;
}

/** Names directly in a results folder that wirecost reads or writes (besides the lock, which lock.ts checks itself). */
const RESULTS_NAMES: ReadonlySet<string> = new Set<string>([...Object.values(RESULTS_FILES), ...Object.values(RESULTS_FOLDERS), STAGING_FOLDER, TARGETS_DIR]);

/** Entries of folder `dir`, or none when it cannot be listed (gone, not a folder). */
function entries(dir: string): Dirent[] {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
}

/**
 * The first entry of results folder `dir` that wirecost would read or write and that is neither a
 * plain file nor a folder — a symbolic link (followed, it reads or writes elsewhere), a FIFO, a
 * socket or a device (reading one can block forever): one of its results files or folders
 * (format/layout.ts RESULTS_FILES, RESULTS_FOLDERS, the staging folder and the targets' pid
 * files), or anything inside those folders (`runs/<config>/1.json`, `logs/<config>/`, …), at any
 * depth; the staging folder `.wirecost-next/` is checked as a results folder of its own. `dir`
 * itself may be a link (a results folder kept on another disk).
 * @returns the entry's path, or undefined when there is none
 */
export function oddEntryInResults(dir: string): string | undefined {
  const inside = (folder: string): string | undefined => {
    for (const e of entries(folder)) {
      const p = join(folder, e.name);
      if (e.isDirectory()) {
        const found = inside(p);
        if (found !== undefined) return found;
      } else if (!e.isFile()) return p;
    }
    return undefined;
  };
  for (const e of entries(dir)) {
    if (!RESULTS_NAMES.has(e.name)) continue;
    const p = join(dir, e.name);
    if (e.isDirectory()) {
      const found = e.name === STAGING_FOLDER ? oddEntryInResults(p) : inside(p);
      if (found !== undefined) return found;
    } else if (!e.isFile()) return p;
  }
  return undefined;
}

/** What `path` is when it is neither a plain file nor a folder: `a symbolic link (to TARGET)`, `a FIFO`, `a socket`, `a device`. */
function oddKind(path: string): string {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return `a symbolic link (to ${readlinkSync(path)})`;
    if (st.isFIFO()) return "a FIFO";
    if (st.isSocket()) return "a socket";
    return "a device";
  } catch {
    return "not a plain file (gone meanwhile)";
  }
}

/**
 * Refuse a results folder that holds, where wirecost reads or writes, anything but plain files
 * and folders ({@link oddEntryInResults}): a symbolic link would make a command read a file from
 * elsewhere as a result, or write, append or remove through it outside the folder; a FIFO would
 * keep a reader waiting forever. Call it before anything is read or written (`run`, `verify`,
 * `merge` (its inputs too), `recount`; the lock file is checked by the lock itself).
 * @throws UserError naming the entry and what it is (a link: where it points), and the fix
 */
export function refuseOddEntries(dir: string): void {
  const odd = oddEntryInResults(dir);
  if (odd === undefined) return;
  throw new UserError({
    file: odd,
    problem: `${oddKind(odd)} in a results folder, which wirecost would read or write through`,
    fix: `results files and folders must be plain ones inside ${dir}: remove it (or put a copy of what it points to in its place)`,
  });
}

/**
 * What marks a folder as wirecost's results (finished or not): what produced it
 * (`provenance.json`, `timings-run.json`, `percall-run.json`), the run journal's plan
 * (`runs/plan.json`), the trials folder, or a re-run staged beside (`.wirecost-next/`).
 */
function holdsWirecostResults(dir: string): boolean {
  const marks = [RESULTS_FILES.provenance, RESULTS_FILES.timingsRun, RESULTS_FILES.percallRun, RESULTS_FOLDERS.trials, STAGING_FOLDER].map((n) => join(dir, n));
  return [...marks, planPath(dir)].some((p) => existsSync(p));
}

/**
 * Refuse to write results into folder `dir` when it holds a file of a results file's name
 * (`summary.tsv`, `runs.tsv`, …: format/layout.ts RESULTS_FILES) but nothing that marks wirecost's
 * results ({@link holdsWirecostResults}): another tool's files, which the run would replace.
 * `--fresh` does not change it: wirecost replaces only results it wrote. Call it after taking the
 * folder's lock, before anything is written (`run`, `verify --scratch`, `merge`).
 * @param option the option that named the folder (`--results`, `--scratch`), for the message
 * @throws UserError naming the folder, the first such file and the fix
 */
export function refuseForeignFolder(dir: string, option: string): void {
  const theirs = Object.values(RESULTS_FILES).find((n) => {
    try {
      return lstatSync(join(dir, n)).isFile();
    } catch {
      return false;
    }
  });
  if (theirs === undefined || holdsWirecostResults(dir)) return;
  throw new UserError({
    file: dir,
    problem: `holds ${theirs} but no wirecost results (no ${RESULTS_FILES.provenance}, ${RESULTS_FILES.timingsRun}, ${RESULTS_FILES.percallRun} or runs/plan.json): another tool's files, which ${option} would replace`,
    fix: `give ${option} a new or empty folder (--fresh replaces only results wirecost wrote)`,
  });
}

/**
 * Refuse to read `path` when it is not a plain file, its links followed (a predictions file may
 * be a link): a FIFO, a socket or a device would keep the reader waiting forever. A missing file
 * is left to the caller.
 * @throws UserError naming the file, what it is and the fix
 */
export function refuseNotPlainFile(path: string): void {
  let st: Stats;
  try {
    st = statSync(path);
  } catch {
    return;
  }
  if (st.isFile()) return;
  const kind = st.isDirectory() ? "a folder" : st.isFIFO() ? "a FIFO" : st.isSocket() ? "a socket" : "a device";
  throw new UserError({ file: path, problem: `${kind}, not a plain file: wirecost reads only plain files`, fix: "put a plain file there" });
}

/** `path` made absolute with symbolic links in its existing part resolved (the part that does not exist yet is appended as given). */
export function realPathOf(path: string): string {
  const abs = resolve(path);
  let head = abs;
  const tail: string[] = [];
  while (!existsSync(head) && dirname(head) !== head) {
    tail.unshift(basename(head));
    head = dirname(head);
  }
  return join(realpathSync(head), ...tail);
}

/**
 * Refuse a folder a command writes (`out`) that is, holds, or lies inside a folder it reads
 * (`inputs`): `merge X --results X/sub` would put the merged copy inside X (in its `.wirecost-next/`,
 * which X's next run discards), `verify --scratch X/logs` a results folder inside X's logs.
 * @param out the written folder and the option that named it, e.g. `{ option: "--results", path }`
 * @param inputs the read folders and how to name each in the message, e.g. `{ name: "input folder", path }`
 * @throws UserError naming both folders and the fix: a folder outside the others
 */
/**
 * A path as a results file records it (a matrix file in `runs/plan.json` and `provenance.json`,
 * which reproduce commands print): relative to the working folder when it lies inside it (the
 * checkout's own matrices read the same on every clone), absolute when it lies outside (a
 * `../../tmp/x/measure.yaml` would hold only from the folder the run started in).
 * @param path a file path, absolute or relative to the working folder
 */
export function recordedPath(path: string): string {
  const r = relative(process.cwd(), resolve(path));
  return r.startsWith("..") || isAbsolute(r) ? resolve(path) : r;
}

/**
 * Refuse an output folder that is, lies inside or holds one of the folders a command reads (a merge
 * writing into a shard it reads would read its own output).
 * @param out the output option and its path
 * @param inputs what the command reads, each named for the message
 * @throws UserError naming the option, both paths and the fix
 */
export function refuseNestedFolders(out: { option: string; path: string }, inputs: readonly { name: string; path: string }[]): void {
  const o = realPathOf(out.path);
  for (const input of inputs) {
    const i = realPathOf(input.path);
    const inside = (a: string, b: string): boolean => {
      const r = relative(b, a);
      return r === "" || (!r.startsWith("..") && !isAbsolute(r));
    };
    if (!inside(o, i) && !inside(i, o)) continue;
    const how = o === i ? "is" : inside(o, i) ? "lies inside" : "holds";
    throw new UserError(
      `${out.option} ${out.path} ${how} the ${input.name} ${input.path} — give ${out.option} a folder outside it (and outside every folder the command reads)`,
    );
  }
}
