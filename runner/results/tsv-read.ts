/** Read the TSV files this runner writes (no quoting; cells hold no tab or line break). */
import { readFileSync } from "node:fs";
import { UserError } from "../errors.js";

/**
 * Rows of a TSV file as header-keyed records.
 * @throws UserError naming the file when it is missing, with `fix`
 */
export function readTsv(file: string, fix: string): Record<string, string>[] {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    throw new UserError(`${file}: missing — ${fix}`);
  }
  const [head, ...lines] = text.replace(/\n$/, "").split("\n");
  const cols = (head ?? "").split("\t");
  return lines.filter((l) => l !== "").map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i] ?? `col${i}`, v])));
}
