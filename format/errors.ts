/**
 * The one error a user can fix, for the runner, the generators and the command line alike
 * (asv's `UserError`). The CLI prints its message on one line and exits 1; any other error is a
 * bug and keeps its stack trace.
 */
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";

/** Where a user error sits, what is wrong there, and the exact fix. */
export interface UserErrorDetails {
  /** Path of the file or folder at fault, as the user passed it (joined with the file name). */
  file: string;
  /** 1-based line number in `file`, when the fault is on one line. */
  line?: number;
  /** Key or column at fault (e.g. `git.commit`, `repeats_ok`), when there is one. */
  key?: string;
  /** What went wrong, without a trailing period (e.g. `expected 5 fields, found 4`). */
  problem: string;
  /** The exact step that gets the user out (e.g. `run \`npx wirecost run --results DIR\` first`). */
  fix: string;
}

/** `text` on one line: each line break (with the blanks around it) becomes one space (a quoted bad file's text may hold them). */
function oneLine(text: string): string {
  return text.replace(/\s*[\r\n]+\s*/g, " ").trimEnd();
}

/**
 * An error the user can fix. Built either from a finished one-line message (it must name the
 * file, and line:column or key, what is wrong and the fix) or from {@link UserErrorDetails}, which
 * give the message `file[:line][ (key)]: problem; fix: fix` and stay readable as fields so tests
 * and callers need not parse the message. Line breaks in either become spaces: the message is
 * always one line.
 */
export class UserError extends Error {
  override name = "UserError";
  /** File or folder at fault (undefined when built from a message). */
  readonly file: string | undefined;
  /** 1-based line in `file`, if any. */
  readonly line: number | undefined;
  /** Key or column at fault, if any. */
  readonly key: string | undefined;
  /** What went wrong (the whole message when built from one). */
  readonly problem: string;
  /** How to fix it ("" when built from a message, which holds the fix). */
  readonly fix: string;

  /** @param details a one-line message, or the parts of one (see {@link UserErrorDetails}) */
  constructor(details: string | UserErrorDetails) {
    if (typeof details === "string") {
      details = oneLine(details);
      super(details);
      this.file = undefined;
      this.line = undefined;
      this.key = undefined;
      this.problem = details;
      this.fix = "";
      return;
    }
    const where = details.line === undefined ? details.file : `${details.file}:${details.line}`;
    const key = details.key === undefined ? "" : ` (${details.key})`;
    details = { ...details, problem: oneLine(details.problem), fix: oneLine(details.fix) };
    super(`${where}${key}: ${details.problem}; fix: ${details.fix}`);
    this.file = details.file;
    this.line = details.line;
    this.key = details.key;
    this.problem = details.problem;
    this.fix = details.fix;
  }
}

/**
 * Read a results file as UTF-8 text.
 * @param missingFix the fix printed when the file does not exist
 * @throws UserError naming the file when it does not exist; other read errors as thrown by fs,
 *   with `file` as their `path` when fs left it out (EISDIR), so that the message names it
 */
export function readResultsFile(file: string, missingFix: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === "ENOENT") throw new UserError({ file, problem: "file not found", fix: missingFix });
    // read(2) on a folder (EISDIR) throws without the path: name the file the error is about.
    if (e.path === undefined) e.path = file;
    throw err;
  }
}

/** What a file-system error code means, for the codes a user can fix by choosing another path or fixing the folder. */
const FS_PROBLEMS: Readonly<Record<string, string>> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  ENOTDIR: "a part of the path is a file, not a folder",
  EISDIR: "it is a folder, not a file",
  ENOENT: "no such file or folder",
  ENAMETOOLONG: "the name is too long",
  ELOOP: "too many symbolic links",
};

/** What node:fs was doing, by its `syscall`, as a verb for "cannot VERB PATH". */
const FS_VERBS: Readonly<Record<string, string>> = {
  mkdir: "create",
  open: "open",
  write: "write",
  rename: "write",
  copyfile: "write",
  unlink: "remove",
  rmdir: "remove",
  rm: "remove",
  scandir: "read",
  read: "read",
  stat: "read",
  lstat: "read",
  access: "read",
};

/** The nearest folder that exists among `path`'s parents (where a folder is created or a file written). */
function existingParent(path: string): string {
  let p = dirname(resolve(path));
  for (;;) {
    try {
      statSync(p);
      return p;
    } catch {
      if (dirname(p) === p) return p;
      p = dirname(p);
    }
  }
}

/** The nearest part of `path` (itself or a parent folder) that exists and is not a folder, if any. */
function fileInTheWay(path: string): string | undefined {
  for (let p = resolve(path); ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) return p;
      return undefined;
    } catch {
      if (dirname(p) === p) return undefined;
    }
  }
}

/**
 * The one-line UserError for a file-system error the user can fix (a read-only or full disk, a
 * folder without write permission, a file where a folder is wanted), naming the path, what is
 * wrong and the fix; undefined for any other error (a bug keeps its stack).
 * @param err as thrown by node:fs (`code`, `path`, `syscall`)
 * @param named the folder or file the user named and the option or argument that named it (e.g.
 *   `{ option: "--results", path: "results" }`): the message starts with them and the fix says
 *   what to pass instead. Without it, only errors of the codes other than ENOENT are converted (a
 *   missing file the user did not name is a bug).
 */
export function fileSystemError(err: unknown, named?: { option: string; path: string }): UserError | undefined {
  const e = err as NodeJS.ErrnoException;
  if (!(e instanceof Error) || typeof e.code !== "string") return undefined;
  const mkdirOverFile = e.code === "EEXIST" && e.syscall === "mkdir";
  const problem = mkdirOverFile ? "it is a file, not a folder" : FS_PROBLEMS[e.code];
  if (problem === undefined || (e.code === "ENOENT" && named === undefined)) return undefined;
  const path = e.path ?? named?.path ?? "(a file whose path the system did not give)";
  const where = named ? `${named.option} ${named.path}` : path;
  const verb = FS_VERBS[e.syscall ?? ""] ?? e.syscall ?? "use";
  const what = named && resolve(path) === resolve(named.path) ? `cannot ${verb} it` : `cannot ${verb} ${path}`;
  const instead = named ? `pass ${named.option} another path` : "use another path";
  let fix: string;
  switch (mkdirOverFile ? "EEXIST" : e.code) {
    case "EACCES":
    case "EPERM": {
      // The folder that refuses is the nearest one that exists (mkdir -p reports the deepest path).
      const parent = existingParent(path);
      fix = `make ${parent} writable for you (ls -ld ${parent}), or ${instead}`;
      break;
    }
    case "EROFS":
      fix = `${instead}, on a writable disk`;
      break;
    case "ENOSPC":
    case "EDQUOT":
      fix = `free some space, or ${instead} on another disk`;
      break;
    case "ENOTDIR":
    case "EEXIST": {
      const file = fileInTheWay(path) ?? path;
      fix = `${file} is a file: ${instead} (a folder), or move the file away`;
      break;
    }
    default:
      fix = `check the path, or ${instead}`;
  }
  return new UserError(`${where}: ${what}: ${problem} (${e.code}) — ${fix}`);
}
