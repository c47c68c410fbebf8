/** Helpers for the matrix tests: fixture paths and the real CLI. */
import { execFile } from "node:child_process";
import { resolve } from "node:path";
import { cli, root } from "../paths.js";

/** Folder of the matrix fixtures (source tree, not dist). */
export const fixtures = resolve(root, "test/fixtures/matrices");

/** Result of one CLI run. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node dist/bin/wirecost.js …args` from the repository root. */
export function wirecost(args: string[], cwd = root): Promise<CliResult> {
  return new Promise((res) => {
    execFile(process.execPath, [cli, ...args], { cwd, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === "number" ? err.code : 1) : 0;
      res({ code, stdout, stderr });
    });
  });
}
