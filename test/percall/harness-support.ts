/**
 * What the harness tests share (test/percall/harness*.test.ts): one run of a per-call matrix
 * through the real CLI into a fresh results folder with its own ticket database, and the rows of
 * its TSV files by column name.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";
import { cli, root } from "../paths.js";

/** One TSV row by column name. */
export type Row = Record<string, string>;

/** The rows of a TSV file with a header line. */
export function tsvRows(file: string): Row[] {
  const [head, ...lines] = readFileSync(file, "utf8").trimEnd().split("\n");
  const cols = head!.split("\t");
  return lines.map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

/** A finished `wirecost run` of a per-call matrix: its folder, exit, stderr and `percall.tsv` rows by configuration. */
export interface HarnessRun {
  dir: string;
  run: { exitCode?: number; stderr: string };
  rows: Map<string, Row>;
  /** Remove the results folder and the ticket database. */
  cleanup(): void;
}

/**
 * Run `matrix` (a path relative to the repository) with `wirecost run --results <fresh folder>`,
 * the ticket database in a fresh folder too; the run may fail (its exit and stderr are returned).
 * @param name a word for the temporary folders' names
 * @param timeoutMs how long the run may take (a first run builds the targets)
 * @param env more environment for the run (and so for the harnesses it starts)
 */
export async function runHarnessMatrix(matrix: string, name: string, timeoutMs: number, env: Record<string, string> = {}): Promise<HarnessRun> {
  const dir = mkdtempSync(join(tmpdir(), `wirecost-percall-${name}-`));
  const dbDir = mkdtempSync(join(tmpdir(), `wirecost-percall-${name}-db-`));
  const run = await execa("node", [cli, "run", matrix, "--results", dir], {
    cwd: root,
    reject: false,
    env: { ...env, WIRECOST_TICKETS_DIR: dbDir },
    timeout: timeoutMs,
  });
  const rows = new Map(tsvRows(join(dir, "percall.tsv")).map((r) => [r.config!, r]));
  return {
    dir,
    run,
    rows,
    cleanup: () => {
      rmSync(dir, { recursive: true, force: true });
      rmSync(dbDir, { recursive: true, force: true });
    },
  };
}
