/** Errors of the runner that are not the user's to fix (user errors: format/errors.ts). */

/**
 * Thrown when a target sends nothing more within a per-exchange time limit (milliseconds): no
 * stdout line, no complete HTTP response, no answer to a JSON-RPC request. Its message says what
 * was awaited and the limit (e.g. `no line from the target's stdout within 5000 ms`). A run that
 * ends with it is recorded as `timeout`, like one that passes the run's own time limit, whatever
 * the transport.
 */
export class ResponseTimeout extends Error {
  override name = "ResponseTimeout";
}

/**
 * Thrown when the abort signal of a run (^C, SIGTERM) fired while the runner was preparing it
 * (probing toolchains, building targets), before any run started: nothing was written to the
 * results folder. The message says what was stopped (e.g. `interrupted while building mcp-py`).
 */
export class Interrupted extends Error {
  override name = "Interrupted";
}
