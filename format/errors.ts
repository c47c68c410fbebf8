/**
 * The one error a user can fix, for the runner, the generators and the command line alike
 * (asv's `UserError`). The CLI prints its message on one line and exits 1; any other error is a
 * bug and keeps its stack trace.
 */
import { readFileSync } from "node:fs";

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

/**
 * An error the user can fix. Built either from a finished one-line message (it must name the
 * file, and line:column or key, what is wrong and the fix) or from {@link UserErrorDetails}, which
 * give the message `file[:line][ (key)]: problem; fix: fix` and stay readable as fields so tests
 * and callers need not parse the message.
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
 * @throws UserError naming the file when it does not exist; other read errors as thrown by fs
 */
export function readResultsFile(file: string, missingFix: string): string {
  try {
    return readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") throw new UserError({ file, problem: "file not found", fix: missingFix });
    throw err;
  }
}
