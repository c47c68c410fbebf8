/**
 * The phase pause of a profiled window: before each timed call, the measuring process blocks for a
 * random time, uniform in [0, one sampling period), without using a CPU (`Atomics.wait` on a
 * private buffer). A sampling profiler takes a sample every period of wall time; a path whose calls
 * each take the same time can fall in step with it, so that a stage's samples follow where in the
 * call the sampler happens to land, not how long the stage runs (seen on the known-cost targets:
 * a 500 µs stage read as 390 µs in three windows running). Starting each call at a random phase
 * of the sampler's period makes every instant of a call equally likely to be sampled, so a
 * stage's share of samples estimates its share of time. The paused time is measured and taken out
 * of the window's wall time; the measuring process's samples that fall in a pause are dropped.
 */
import type { FoldedProfile } from "../attribution/folded.js";

const SLOT = new Int32Array(new SharedArrayBuffer(4));

/**
 * Block this thread for a random time, uniform in [0, `maxUs`) µs, using no CPU.
 * @param maxUs the longest pause, µs (the sampling period); 0 or less: no pause
 * @returns the time actually paused, µs (from the monotonic clock)
 */
export function phasePause(maxUs: number): number {
  if (!(maxUs > 0)) return 0;
  const t0 = process.hrtime.bigint();
  Atomics.wait(SLOT, 0, 0, (Math.random() * maxUs) / 1000);
  return Number(process.hrtime.bigint() - t0) / 1000;
}

/** A V8 folded frame of `phasePause` (the frame text is `<function> (<file>:<line>)`). */
const PAUSE_FRAME = /^phasePause \(/;

/**
 * The profile without the samples that fell in a phase pause (their stacks hold a `phasePause`
 * frame): time the measuring process spent blocked on purpose, not on a call.
 */
export function withoutPhasePause(p: FoldedProfile): FoldedProfile {
  return { ...p, stacks: p.stacks.filter((s) => !s.frames.some((f) => PAUSE_FRAME.test(f))) };
}
