/**
 * Pre-serialized HTTP/1.1 requests for timing, and response validation. A timed request is one
 * fixed Buffer sent byte-identical every time; each response is checked (status 200, a JSON-RPC
 * `result` and no `error`, an expected substring), so an error answered with HTTP 200 fails the run
 * instead of making it look fast.
 */

/** One HTTP exchange to repeat: the exact request bytes and how to check each response. */
export interface TimedRequest {
  /** Workload name, recorded in results (e.g. `a2a-send-message`). */
  workload: string;
  /** The request, byte-exact: request line, headers, body. */
  bytes: Buffer;
  /**
   * The JSON-RPC id the request carries. On an event-stream response, the event carrying a
   * response with this id answers the exchange (undefined: the first JSON-RPC response event does).
   */
  rpcId?: number | string;
  /**
   * Throws ResponseError when a response does not answer the request correctly (`body`: the
   * response body, or on an event stream the data of the JSON-RPC response's event). Must be a pure
   * function of `status` and the body bytes (it may not keep `body`, whose memory is reused): the
   * raw client accepts a response byte-identical to the last one this check passed on the same
   * connection without calling it again.
   */
  validate(status: number, body: Buffer): void;
}

/** A response that does not answer the request correctly (wrong status, JSON-RPC error, missing text). */
export class ResponseError extends Error {}

/**
 * Serialize a POST with a JSON body on a keep-alive connection.
 * @param port the server's port, for the Host header (`127.0.0.1:port`)
 * @param path request target, e.g. `/`
 * @param headers extra header fields in order (content-type and content-length are added)
 * @param body the JSON body text
 * @returns the request bytes
 */
export function serializePost(port: number, path: string, headers: [string, string][], body: string): Buffer {
  const b = Buffer.from(body, "utf8");
  const head = [
    `POST ${path} HTTP/1.1`,
    `Host: 127.0.0.1:${port}`,
    "Content-Type: application/json",
    ...headers.map(([k, v]) => `${k}: ${v}`),
    `Content-Length: ${b.length}`,
    "",
    "",
  ].join("\r\n");
  return Buffer.concat([Buffer.from(head, "latin1"), b]);
}

/**
 * Check a JSON-RPC response: HTTP 200, a JSON object body with `result` and without `error`, and
 * (when given) `expect` somewhere in the body text.
 * @throws ResponseError naming the status, the JSON-RPC error code/message, or the missing text
 */
export function validateJsonRpc(status: number, body: Buffer, expect?: string): void {
  if (status !== 200) throw new ResponseError(`HTTP ${status}: ${body.toString("utf8").slice(0, 200)}`);
  let msg: { result?: unknown; error?: { code?: unknown; message?: unknown } };
  try {
    msg = JSON.parse(body.toString("utf8")) as typeof msg;
  } catch {
    throw new ResponseError(`HTTP 200 body is not JSON: ${body.toString("utf8").slice(0, 200)}`);
  }
  if (msg.error !== undefined) throw new ResponseError(`HTTP 200 carrying JSON-RPC error ${String(msg.error?.code)}: ${String(msg.error?.message)}`);
  if (msg.result === undefined) throw new ResponseError(`HTTP 200 JSON-RPC message without result: ${body.toString("utf8").slice(0, 200)}`);
  if (expect !== undefined && !body.includes(expect))
    throw new ResponseError(`response lacks ${JSON.stringify(expect)}: ${body.toString("utf8").slice(0, 200)}`);
}
