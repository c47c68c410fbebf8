/**
 * Folded stacks: the one profile format wirecost reads (the profile-window contract of issue 25,
 * README "How to read a stage table"). UTF-8 text:
 * - optional header lines starting with `# `; a `# wirecost-profile key=value …` line carries the
 *   profile's facts (`profiler=<name@version>`, `interval_us=<sampling period, µs>`, `pid=…`);
 *   other `# ` lines are comments;
 * - one line per distinct stack: frames from ROOT to LEAF separated by `;`, one space, then the
 *   sample count (a positive integer). A frame may hold spaces (`parse_and_validate (known_cost.py:12)`):
 *   the count is after the LAST space.
 * Only on-CPU samples belong in it (an idle frame such as V8's `(idle)` is left out by the converter).
 */

/** One distinct stack and how many samples ended in it. */
export interface FoldedStack {
  /** Frames from root to leaf, as the profiler printed them. */
  frames: string[];
  /** Samples, ≥ 1. */
  count: number;
}

/** A parsed folded-stacks profile. */
export interface FoldedProfile {
  /** The `# wirecost-profile` header's key=value pairs ({} when there is none). */
  meta: Record<string, string>;
  stacks: FoldedStack[];
}

/** The frame given to a sample whose stack line holds no frames (` 3`): it is counted, and no rule names it, so it is unclassified. */
export const EMPTY_STACK = "(empty stack)";

/** A folded-stacks text that is not one; the message names the line. */
export class FoldedError extends Error {}

/**
 * Parse folded stacks.
 * @param text the file's text (empty lines ignored; `\r\n` line ends taken)
 * @returns the header facts and the stacks in file order (equal stacks are not merged)
 * @throws FoldedError naming the 1-based line: a stack line without a count after its last space,
 *   a count that is not a positive integer, an empty frame list, or a header pair without `=`
 */
export function parseFolded(text: string): FoldedProfile {
  const meta: Record<string, string> = {};
  const stacks: FoldedStack[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((line, i) => {
    const at = `line ${i + 1}`;
    if (line.trim() === "") return;
    if (line.startsWith("#")) {
      const words = line.slice(1).trim().split(/\s+/);
      if (words[0] !== "wirecost-profile") return;
      for (const w of words.slice(1)) {
        const eq = w.indexOf("=");
        if (eq <= 0) throw new FoldedError(`${at}: header item "${w}" is not key=value`);
        meta[w.slice(0, eq)] = w.slice(eq + 1);
      }
      return;
    }
    const sp = line.lastIndexOf(" ");
    if (sp === 0 && /^ [1-9]\d*$/.test(line)) {
      // A sample with no frames (py-spy --nonblocking reads a stack mid-change now and then): kept, as its own frame.
      stacks.push({ frames: [EMPTY_STACK], count: Number(line.slice(1)) });
      return;
    }
    if (sp <= 0) throw new FoldedError(`${at}: no sample count after the stack (expected "root;…;leaf COUNT")`);
    const countText = line.slice(sp + 1);
    if (!/^[1-9]\d*$/.test(countText)) throw new FoldedError(`${at}: sample count "${countText}" is not a positive integer`);
    const frames = line.slice(0, sp).split(";");
    if (frames.some((f) => f === "")) throw new FoldedError(`${at}: empty frame in the stack`);
    stacks.push({ frames, count: Number(countText) });
  });
  return { meta, stacks };
}

/**
 * Write a profile as folded stacks: the `# wirecost-profile` header (when `meta` has keys; values
 * must hold no whitespace) then one line per stack. Frames must hold no `;` and no line break
 * (converters replace them).
 * @throws Error on a meta value with whitespace, or a count that is not a positive integer
 */
export function formatFolded(p: FoldedProfile): string {
  const head = Object.entries(p.meta).map(([k, v]) => {
    if (/\s/.test(v) || /\s|=/.test(k)) throw new Error(`profile header ${k}=${v}: no whitespace allowed`);
    return `${k}=${v}`;
  });
  const lines = head.length ? [`# wirecost-profile ${head.join(" ")}`] : [];
  for (const s of p.stacks) {
    if (!Number.isInteger(s.count) || s.count < 1) throw new Error(`stack count ${s.count} is not a positive integer`);
    lines.push(`${s.frames.join(";")} ${s.count}`);
  }
  return lines.join("\n") + "\n";
}

/** A frame text safe for folded stacks: `;` and line breaks replaced by spaces. */
export function foldedFrame(text: string): string {
  return text.replace(/[;\r\n]/g, " ");
}

/** Total samples of a profile. */
export function sampleCount(p: FoldedProfile): number {
  return p.stacks.reduce((n, s) => n + s.count, 0);
}
