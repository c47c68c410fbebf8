/** Helpers of the runner tests: read TSV files, find processes left behind. */
import { readdirSync, readFileSync } from "node:fs";

/** Rows of a TSV file as header-keyed records. */
export function tsv(path: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(path, "utf8").replace(/\n$/, "").split("\n");
  const cols = head!.split("\t");
  return lines.filter((l) => l).map((l) => Object.fromEntries(l.split("\t").map((v, i) => [cols[i]!, v])));
}

/** Is `pid` a live process (not gone, not a zombie waiting to be reaped)? */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** Pids of live processes whose environment holds `marker` (e.g. `WIRECOST_TEST_MARK=…`), i.e. descendants of a test's CLI. */
export function processesWithMarker(marker: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, "latin1").split("\0").includes(marker) && alive(Number(name))) found.push(Number(name));
    } catch {
      /* gone or not ours */
    }
  }
  return found;
}
