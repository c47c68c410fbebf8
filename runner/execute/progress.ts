/**
 * Progress of a matrix run: a bar (cli-progress) with run count, configuration id, failures and
 * ETA on a terminal; one plain line per finished run otherwise (CI logs).
 */
import cliProgress from "cli-progress";

/** Reports runs as they finish. */
export interface Progress {
  done(config: string, repeat: number, status: string, error: string): void;
  stop(): void;
}

/** A progress reporter for `total` runs writing to stderr. */
export function progress(total: number, stream: NodeJS.WriteStream = process.stderr): Progress {
  let n = 0;
  let failures = 0;
  if (stream.isTTY) {
    const bar = new cliProgress.SingleBar(
      { format: "{bar} {value}/{total} runs | {failures} failed | ETA {eta_formatted} | {config}", stream, hideCursor: true, clearOnComplete: false },
      cliProgress.Presets.shades_classic,
    );
    bar.start(total, 0, { config: "", failures: 0 });
    return {
      done(config, _repeat, status) {
        if (status !== "ok") failures++;
        bar.increment(1, { config, failures });
      },
      stop: () => bar.stop(),
    };
  }
  return {
    done(config, repeat, status, error) {
      n++;
      if (status !== "ok") failures++;
      stream.write(`[${n}/${total}] ${config} #${repeat} ${status}${error ? `: ${error}` : ""}\n`);
    },
    stop() {
      stream.write(`${n} runs, ${failures} not ok\n`);
    },
  };
}
