/**
 * `wirecost run <matrix>` for a per-call matrix (one with a top-level `percall:` block): load it,
 * run {@link runPercall}, print where the results went. `--only` selects path ids.
 */
import { loadPercallMatrix } from "./matrix.js";
import { runPercall } from "./engine.js";

/**
 * Run the per-call matrix `file` into `o.results`; returns the process exit code (0).
 * @throws UserError for a malformed matrix; PercallProtocolError when a target breaks
 */
export async function runPercallCommand(file: string, o: { results: string; only: string[] }): Promise<number> {
  const m = loadPercallMatrix(file);
  const stop = (sig: NodeJS.Signals): void => {
    process.stderr.write(`\n${sig}: stopped; nothing written (percall.json is written at the end of a run)\n`);
    process.exit(130); // the exit handler in client.ts stops every running target
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  const command = ["npx", "wirecost", ...process.argv.slice(2)].join(" ");
  const out = await runPercall(m, o.results, command, o.only, (line) => process.stderr.write(line + "\n"));
  process.stderr.write(`${out.paths.length} paths measured; results in ${o.results}/percall.json\n`);
  return 0;
}
