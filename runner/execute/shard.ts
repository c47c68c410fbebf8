/**
 * `--shard K/N`: a deterministic partition of configurations. Configurations are sorted by id
 * and dealt round-robin, so shard K holds ids at sorted positions K-1, K-1+N, …; every
 * configuration is in exactly one shard, shard sizes differ by at most one, and the partition
 * depends only on the ids (not on the machine, the order of axes in memory, or time).
 */
import { UserError } from "../../format/errors.js";
import type { Configuration } from "../matrix/types.js";

/** One shard: 1-based index `k` of `n`. */
export interface Shard {
  k: number;
  n: number;
}

/**
 * Parse `K/N` (1 ≤ K ≤ N).
 * @throws UserError naming `--shard`, the text and the expected form
 */
export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const k = m ? Number(m[1]) : NaN;
  const n = m ? Number(m[2]) : NaN;
  if (!m || n < 1 || k < 1 || k > n) throw new UserError(`--shard ${text}: expected K/N with 1 ≤ K ≤ N, e.g. --shard 2/3`);
  // Past 2^53−1 a number is rounded (99999999999999999999 reads as 100000000000000000000): no exact shard.
  if (!Number.isSafeInteger(n))
    throw new UserError(
      `--shard ${text}: N is past 2^53−1 (${Number.MAX_SAFE_INTEGER}), which a number cannot hold exactly — give a smaller N, e.g. --shard 2/3`,
    );
  return { k, n };
}

/** The configurations of shard `s`, in their original order. */
export function shardOf(configs: readonly Configuration[], s: Shard): Configuration[] {
  const ids = configs.map((c) => c.id).sort();
  const mine = new Set(ids.filter((_, i) => i % s.n === s.k - 1));
  return configs.filter((c) => mine.has(c.id));
}
