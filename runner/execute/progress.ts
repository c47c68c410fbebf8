/**
 * Progress of a matrix run: a bar (cli-progress) with run count, configuration id, failures so
 * far, ETA and what is going on (the targets running, the targets still building) on a terminal;
 * one plain line per finished run otherwise (CI logs), with the same facts. The ETA is the mean
 * wall time per finished run so far times the runs left.
 */
import cliProgress from "cli-progress";
import { counted } from "../../format/plural.js";

/** Reports runs as they finish. */
export interface Progress {
  /** One run finished with `status` ("ok", "failed", …) and `error` ("" when ok). */
  done(config: string, repeat: number, status: string, error: string): void;
  /** A line of text that must not be overwritten by the bar (e.g. "stopping…"). */
  note(text: string): void;
  /** End the display. */
  stop(): void;
}

/** Seconds as `1m05s` / `12s`. */
function duration(s: number): string {
  if (!Number.isFinite(s)) return "?";
  const r = Math.round(s);
  return r >= 60 ? `${Math.floor(r / 60)}m${String(r % 60).padStart(2, "0")}s` : `${r}s`;
}

/**
 * A progress reporter for `total` runs writing to `stream` (default stderr).
 * @param skipped runs already done before this process (resume); shown in the count, not in the ETA
 * @param status what is going on now, appended to each line (e.g. `running mcp-go, mcp-py |
 *   building mcp-rust`; "" for nothing)
 */
export function progress(total: number, stream: NodeJS.WriteStream = process.stderr, skipped = 0, status: () => string = () => ""): Progress {
  let n = skipped;
  let failures = 0;
  const t0 = Date.now();
  const eta = () => {
    const ran = n - skipped;
    return ran === 0 ? Infinity : (((Date.now() - t0) / 1000) * (total - n)) / ran;
  };
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: "{bar} {value}/{total} runs | {failures} failed | ETA {eta_left} | {config}{status}", stream, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    const now = () => (status() ? ` | ${status()}` : "");
    bar.start(total, skipped, { config: "", failures: 0, eta_left: "?", status: now() });
    return {
      done(config, _repeat, result) {
        n++;
        if (result !== "ok") failures++;
        bar.increment(1, { config, failures, eta_left: duration(eta()), status: now() });
      },
      note(text) {
        stream.write(`\n${text}\n`);
      },
      stop: () => bar.stop(),
    };
  }
  return {
    done(config, repeat, result, error) {
      n++;
      if (result !== "ok") failures++;
      const going = status();
      stream.write(
        `[${n}/${total}] ${config} #${repeat} ${result}${error ? `: ${error}` : ""} | ${failures} failed | ETA ${duration(eta())}${going ? ` | ${going}` : ""}\n`,
      );
    },
    note(text) {
      stream.write(`${text}\n`);
    },
    stop() {
      stream.write(`${counted(n - skipped, "run")}, ${failures} not ok${skipped ? ` (${skipped} done before, resumed)` : ""}\n`);
    },
  };
}
