/**
 * Which configurations of a bytes run may start while target builds are still running
 * (runner/execute/run-matrix.ts): a configuration waits until every build it needs (its target's
 * entry, its declared client) has ended; then it is ready, or failed with its build's error (or
 * the error of the preflight check of what was built).
 */
import type { StartedBuilds } from "../build/build.js";

/** What a configuration may do now: wait for a build, run, or fail with its build's error. */
export type GateState = "waiting" | "ready" | "failed";

/** The builds of one run, as they end. */
export class BuildGate {
  private readonly open: Set<string>;
  private readonly errors = new Map<string, unknown>();
  /** Target key → the error of its preflight check once its build ended (null: none). */
  private readonly checked = new Map<string, unknown>();
  private wake: () => void = () => {};
  private next: Promise<void>;
  private readonly settled: Promise<void>;

  /**
   * @param builds the run's builds (runner/build/build.ts startBuilds)
   * @param check the preflight check of a target key's configurations, run once its builds have
   *   ended (throws a UserError naming what is wrong)
   */
  constructor(
    builds: StartedBuilds,
    private readonly check: (key: string) => void,
  ) {
    this.open = new Set(builds.pending.keys());
    this.pending = new Set(builds.pending.keys());
    this.next = new Promise((r) => (this.wake = r));
    for (const [name, p] of builds.pending)
      p.then(
        () => this.end(name),
        (e: unknown) => this.end(name, e),
      );
    this.settled = Promise.allSettled(new Set(builds.pending.values())).then(() => {});
  }

  /** Names that had a build to run when the run started. */
  private readonly pending: Set<string>;

  private end(name: string, error?: unknown): void {
    this.open.delete(name);
    if (error !== undefined) this.errors.set(name, error);
    const wake = this.wake;
    this.next = new Promise((r) => (this.wake = r));
    wake();
  }

  /**
   * The error that keeps a configuration from running: a failed build it needs, else the
   * preflight check of its target once built; undefined while it waits or when it may run.
   * @param needs the build names it needs (its target's entry, its declared client)
   * @param key its target's entry (targetKey)
   */
  failure(needs: readonly string[], key: string): unknown {
    if (needs.some((n) => this.open.has(n))) return undefined;
    for (const n of needs) if (this.errors.has(n)) return this.errors.get(n);
    if (!needs.some((n) => this.pending.has(n))) return undefined; // found built at the start: checked before the first run
    if (!this.checked.has(key)) {
      try {
        this.check(key);
        this.checked.set(key, undefined);
      } catch (e) {
        this.checked.set(key, e);
      }
    }
    return this.checked.get(key);
  }

  /** {@link GateState} of a configuration (see {@link failure} for the arguments). */
  state(needs: readonly string[], key: string): GateState {
    if (needs.some((n) => this.open.has(n))) return "waiting";
    return this.failure(needs, key) === undefined ? "ready" : "failed";
  }

  /** The names still building, sorted. */
  building(): string[] {
    return [...this.open].sort();
  }

  /** Resolves when the next build ends. */
  changed(): Promise<void> {
    return this.next;
  }

  /** Resolves when every build has ended (built or failed). */
  allSettled(): Promise<void> {
    return this.settled;
  }
}
