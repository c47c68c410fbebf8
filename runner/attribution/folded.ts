/**
 * Folded stacks, the one profile format wirecost reads (README "Profile windows"): optional header
 * lines `# wirecost-profile key=value …` (at least `profiler` and `interval_us`), then one line per
 * distinct stack, frames from root to leaf joined by `;`, a space and a positive sample count.
 */

/** A parsed profile: the header's key=value pairs and each stack with its sample count. */
export interface FoldedProfile {
  /** Header pairs of `# wirecost-profile` lines (e.g. `profiler`, `interval_us`, `pid`), as text. */
  meta: Record<string, string>;
  /** One entry per stack line: frames root first, leaf last; `count` samples (a positive integer). */
  stacks: { frames: string[]; count: number }[];
}

/**
 * Parse folded-stack text. A frame may hold spaces (`parse_and_validate (known_cost.py:12)`): the
 * count is what follows the line's last space. Blank lines and `#` lines other than the header are
 * skipped.
 * @throws Error naming the 1-based line when a stack line has no positive integer count or no frame
 */
export function parseFolded(text: string): FoldedProfile {
  const meta: Record<string, string> = {};
  const stacks: FoldedProfile["stacks"] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trimEnd();
    if (line === "") return;
    if (line.startsWith("#")) {
      const header = /^# wirecost-profile\s+(.*)$/.exec(line);
      for (const pair of header ? header[1]!.split(/\s+/) : []) {
        const eq = pair.indexOf("=");
        if (eq > 0) meta[pair.slice(0, eq)] = pair.slice(eq + 1);
      }
      return;
    }
    const space = line.lastIndexOf(" ");
    const count = Number(line.slice(space + 1));
    if (space <= 0 || !Number.isInteger(count) || count <= 0) {
      throw new Error(`folded stacks, line ${i + 1}: expected "frame;frame;… COUNT" with a positive integer count, got ${JSON.stringify(line.slice(0, 80))}`);
    }
    stacks.push({ frames: line.slice(0, space).split(";"), count });
  });
  return { meta, stacks };
}
