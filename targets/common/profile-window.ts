/**
 * The profile window of wirecost's own TypeScript targets (the profile-window contract of issue
 * 25; README "How to read a stage table"): when the environment has
 * `WIRECOST_PROFILE_OUT=<absolute path>` (and optionally `WIRECOST_PROFILE_HZ=<rate>`, default
 * 997), the process samples its own main thread with V8's CPU profiler (`node:inspector`'s
 * Profiler) from SIGUSR1 to SIGUSR2, then writes the samples as folded stacks to `<path>.tmp` and
 * renames it to `<path>`, and goes on serving. Without the variable nothing is installed and the
 * target behaves exactly as before (its bytes are unchanged). Also the converter from a V8
 * `.cpuprofile` to folded stacks, which the runner uses for its own process.
 */
import { Session } from "node:inspector";
import { renameSync, writeFileSync } from "node:fs";

/** The parts of a V8 CPU profile (`Profiler.stop`'s `profile`, a `.cpuprofile` file) the converter reads. */
export interface V8CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples?: number[];
}

/** A V8 frame as folded text: `function (url:line)` (line 1-based), or the bare name for V8's own pseudo-frames (`(garbage collector)`). */
function frameText(cf: V8CpuProfile["nodes"][number]["callFrame"]): string {
  const name = cf.functionName || "(anonymous)";
  const text = cf.url ? `${name} (${cf.url}:${cf.lineNumber + 1})` : name;
  return text.replace(/[;\r\n]/g, " ");
}

/**
 * Folded stacks of a V8 CPU profile: per sample, the frames from below V8's `(root)` to the leaf;
 * samples whose leaf is `(idle)` are dropped (off-CPU); `(garbage collector)` and `(program)` are kept.
 * @param meta header pairs (values without whitespace), e.g. `{profiler: "v8@11.3", interval_us: "1003"}`
 * @returns the folded text, one line per distinct stack
 */
export function cpuProfileToFolded(profile: V8CpuProfile, meta: Record<string, string>): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const counts = new Map<number, number>();
  for (const id of profile.samples ?? []) counts.set(id, (counts.get(id) ?? 0) + 1);
  const stacks = new Map<string, number>();
  for (const [id, n] of counts) {
    const frames: string[] = [];
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur)!;
      if (parent.get(cur) === undefined && node.callFrame.functionName === "(root)") break;
      frames.push(frameText(node.callFrame));
    }
    if (frames.length === 0 || frames[0] === "(idle)") continue;
    const key = frames.reverse().join(";");
    stacks.set(key, (stacks.get(key) ?? 0) + n);
  }
  const head = Object.entries(meta).map(([k, v]) => `${k}=${v}`);
  const lines = [`# wirecost-profile ${head.join(" ")}`, ...[...stacks].map(([k, n]) => `${k} ${n}`)];
  return lines.join("\n") + "\n";
}

/** The sampling period for a rate in Hz, µs (at least 1). */
export function intervalUs(hz: number): number {
  return Math.max(1, Math.round(1e6 / hz));
}

/** `post` of an inspector session as a promise. */
function post<T>(s: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => s.post(method, params ?? {}, (err, res) => (err ? reject(err) : resolve(res as T))));
}

/**
 * V8's CPU profiler on this thread, through an inspector session: `start()` begins sampling every
 * `intervalUs`, `stop()` ends it and returns the folded stacks (with the wirecost-profile header:
 * profiler v8@<version>, interval_us, pid).
 */
export class V8Sampler {
  private session?: Session;
  constructor(private readonly periodUs: number) {}

  /** Begin sampling. @throws Error when the inspector refuses (e.g. another session profiles) */
  async start(): Promise<void> {
    const s = new Session();
    s.connect();
    this.session = s;
    await post(s, "Profiler.enable");
    await post(s, "Profiler.setSamplingInterval", { interval: this.periodUs });
    await post(s, "Profiler.start");
  }

  /** Stop and return the folded stacks. @throws Error when not started */
  async stop(): Promise<string> {
    const s = this.session;
    if (!s) throw new Error("V8Sampler.stop before start");
    const { profile } = await post<{ profile: V8CpuProfile }>(s, "Profiler.stop");
    await post(s, "Profiler.disable");
    s.disconnect();
    this.session = undefined;
    return cpuProfileToFolded(profile, { profiler: `v8@${process.versions.v8.split("-")[0]}`, interval_us: String(this.periodUs), pid: String(process.pid) });
  }
}

/**
 * Install the signal window when `env.WIRECOST_PROFILE_OUT` is set (see the file's head);
 * otherwise do nothing. A failure to profile or to write is printed on stderr as one line; the
 * target goes on serving (wirecost then finds no profile and says so).
 * @returns whether the window was installed
 */
export function installProfileWindow(env: NodeJS.ProcessEnv = process.env): boolean {
  const out = env.WIRECOST_PROFILE_OUT;
  if (!out) return false;
  const hz = Number(env.WIRECOST_PROFILE_HZ ?? "997");
  const sampler = new V8Sampler(intervalUs(Number.isFinite(hz) && hz > 0 ? hz : 997));
  let running: Promise<void> | undefined;
  process.on("SIGUSR1", () => {
    running = sampler.start().catch((e: Error) => {
      process.stderr.write(`profile window: could not start V8's profiler: ${e.message}\n`);
    });
  });
  process.on("SIGUSR2", () => {
    void (async () => {
      try {
        await running;
        const text = await sampler.stop();
        writeFileSync(`${out}.tmp`, text);
        renameSync(`${out}.tmp`, out);
      } catch (e) {
        process.stderr.write(`profile window: could not write ${out}: ${(e as Error).message}\n`);
      }
    })();
  });
  return true;
}
