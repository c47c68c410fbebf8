/**
 * A minimal pipelining MCP client for the per-call engine: it starts one target process (stdio or
 * HTTP) from the matrix's target command (runner/execute/process.ts, the runner's one way to start
 * a target), opens one session for a revision, and sends JSON-RPC requests that may overlap.
 * Responses are matched to requests by JSON-RPC id, never by order: the v2 SDK answers pipelined
 * stdio requests out of order. No capture relay sits in between; this client times, it does not count.
 */
import { Agent, request as httpRequest } from "node:http";
import { hasHandshake, initializeParams, metaEnvelope } from "../drivers/mcp/revision.js";
import { freePort, startTarget, type TargetProcess } from "../execute/process.js";
import type { TargetCommand } from "../matrix/types.js";

/** A JSON-RPC response as parsed off the wire. */
export interface RpcResponse {
  id?: number | string | null;
  method?: string;
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** How to start a target and which session to open. */
export interface ClientSpec {
  /** The matrix's command for this transport (`{port}` and axis placeholders substituted at start). */
  command: TargetCommand;
  /** Axis values of the configuration (substituted, and passed as `WIRECOST_<AXIS>`). */
  values: Record<string, string>;
  transport: "stdio" | "http";
  /** MCP revision, e.g. `2025-11-25` or `2026-07-28`. */
  revision: string;
  /** Working directory of the server process (the matrix file's folder). */
  cwd: string;
  /** Per-request and start-up timeout, milliseconds. */
  timeoutMs: number;
}

/** Start-up phases of one session, milliseconds from the spawn call (hrtime). */
export interface SetupTiming {
  /** Spawn to the process being ready to receive (HTTP: its listening line; stdio: 0, nothing to wait for). */
  readyMs: number;
  /** Spawn to the session being open (2025 era: initialize answered and notifications/initialized sent; 2026-07-28: = readyMs). */
  openMs: number;
  /** Spawn to the tools/list answer. */
  listedMs: number;
  /** Spawn to the first tools/call answer: the first usable call. */
  firstCallMs: number;
}

/** Thrown when the server answers an error, an unexpected shape, or nothing in time. */
export class PercallProtocolError extends Error {
  override readonly name = "PercallProtocolError";
}

const msSince = (t0: bigint): number => Number(process.hrtime.bigint() - t0) / 1e6;

/** One MCP session over one started target process. Call {@link McpCallClient.start}, then `callTool`, then `close`. */
export class McpCallClient {
  private proc!: TargetProcess;
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: RpcResponse) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  private port = 0;
  private agent?: Agent;
  private sessionId?: string;
  private stderrTail = "";

  private constructor(private readonly spec: ClientSpec) {}

  /**
   * Spawn the target, open the session, list tools and make `firstCall`; returns the client and
   * the start-up timing.
   * @throws PercallProtocolError when the target exits, errs or times out during start-up
   */
  static async start(spec: ClientSpec, firstCall: { name: string; arguments: Record<string, unknown> }): Promise<{ client: McpCallClient; setup: SetupTiming }> {
    const c = new McpCallClient(spec);
    const port = spec.transport === "http" ? await freePort() : 0;
    const t0 = process.hrtime.bigint();
    await c.spawn(port);
    const readyMs = msSince(t0);
    await c.open();
    const openMs = msSince(t0);
    await c.rpc("tools/list", {});
    const listedMs = msSince(t0);
    await c.callTool(firstCall.name, firstCall.arguments);
    return { client: c, setup: { readyMs, openMs, listedMs, firstCallMs: msSince(t0) } };
  }

  /** Start the target (HTTP: on `port`) and resolve once it can receive (HTTP: its `listening on` line). */
  private async spawn(port: number): Promise<void> {
    const { command, values, transport, cwd } = this.spec;
    const proc = startTarget(command, transport === "http" ? { ...values, port: String(port) } : values, cwd);
    this.proc = proc;
    const child = proc.child;
    const exited = child.then(() => {
      this.failAll(new PercallProtocolError(`target exited (${proc.exit() ?? "?"}): ${this.stderrTail.slice(-300)}`));
    });
    child.stdin!.on("error", () => {});
    let err = "";
    const listening = new Promise<void>((resolve, reject) => {
      // stdio has no listening line to wait for: no timer, which would hold the event loop open
      const timer = transport === "http" ? setTimeout(() => reject(new PercallProtocolError(`no listening line within ${this.spec.timeoutMs} ms: ${this.stderrTail.slice(-300)}`)), this.spec.timeoutMs) : undefined;
      child.stderr!.on("data", (d: Buffer) => {
        err += d.toString();
        this.stderrTail = err.slice(-2000);
        const m = /listening on 127\.0\.0\.1:(\d+)/.exec(err);
        if (m && this.port === 0) {
          this.port = Number(m[1]);
          clearTimeout(timer);
          resolve();
        }
      });
      void exited.then(() => reject(new PercallProtocolError(`target exited before listening: ${proc.spawnError() ?? this.stderrTail.slice(-300)}`)));
    });
    if (transport === "stdio") {
      listening.catch(() => {});
      let buf = "";
      child.stdout!.on("data", (d: Buffer) => {
        buf += d.toString();
        let nl: number;
        while ((nl = buf.indexOf("\n")) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim() !== "") this.onMessage(JSON.parse(line) as RpcResponse);
        }
      });
      return;
    }
    await listening;
    this.agent = new Agent({ keepAlive: true, maxSockets: 64 });
  }

  private onMessage(m: RpcResponse): void {
    if (m.method !== undefined) return; // notifications and server requests: the workload sends none
    const p = typeof m.id === "number" ? this.pending.get(m.id) : undefined;
    if (p === undefined) return;
    this.pending.delete(m.id as number);
    clearTimeout(p.timer);
    p.resolve(m);
  }

  private failAll(e: Error): void {
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(e);
    }
  }

  private async open(): Promise<void> {
    if (!hasHandshake(this.spec.revision)) return;
    const res = await this.rpc("initialize", initializeParams(this.spec.revision));
    const got = (res.protocolVersion as string | undefined) ?? "";
    if (got !== this.spec.revision) throw new PercallProtocolError(`initialize answered protocolVersion ${got}, expected ${this.spec.revision}`);
    await this.send({ jsonrpc: "2.0", method: "notifications/initialized" }, undefined);
  }

  /**
   * Call a tool and return its result object.
   * @throws PercallProtocolError on a JSON-RPC error, a tool error (`isError`), or a timeout
   */
  async callTool(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
    const result = await this.rpc("tools/call", { name, arguments: args }, name);
    if (result.isError === true) throw new PercallProtocolError(`tools/call ${name} answered a tool error: ${JSON.stringify(result).slice(0, 200)}`);
    return result;
  }

  /** Send one request and resolve with its `result`. @throws PercallProtocolError as {@link callTool} */
  async rpc(method: string, params: Record<string, unknown>, toolName?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const p = hasHandshake(this.spec.revision) ? params : { ...params, _meta: metaEnvelope(this.spec.revision) };
    const res = await this.send({ jsonrpc: "2.0", id, method, params: p }, { id, method, toolName });
    if (res.error) throw new PercallProtocolError(`${method} (id ${id}) answered JSON-RPC error ${res.error.code}: ${res.error.message}`);
    if (!res.result) throw new PercallProtocolError(`${method} (id ${id}) answered without a result`);
    return res.result;
  }

  private send(msg: Record<string, unknown>, req: { id: number; method: string; toolName: string | undefined } | undefined): Promise<RpcResponse> {
    const body = JSON.stringify(msg);
    if (this.spec.transport === "stdio") {
      if (req === undefined) {
        this.proc.child.stdin!.write(body + "\n");
        return Promise.resolve({});
      }
      return new Promise<RpcResponse>((resolve, reject) => {
        const timer = setTimeout(() => {
          this.pending.delete(req.id);
          reject(new PercallProtocolError(`${req.method} (id ${req.id}): no answer within ${this.spec.timeoutMs} ms`));
        }, this.spec.timeoutMs);
        this.pending.set(req.id, { resolve, reject, timer });
        this.proc.child.stdin!.write(body + "\n");
      });
    }
    return this.post(body, req);
  }

  private post(body: string, req: { id: number; method: string; toolName: string | undefined } | undefined): Promise<RpcResponse> {
    const rev = this.spec.revision;
    const headers: Record<string, string> = {
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      "Content-Length": String(Buffer.byteLength(body)),
    };
    if (!hasHandshake(rev) || this.sessionId !== undefined) headers["MCP-Protocol-Version"] = rev;
    if (this.sessionId !== undefined) headers["Mcp-Session-Id"] = this.sessionId;
    if (!hasHandshake(rev)) {
      headers["Mcp-Method"] = req?.method ?? "notifications/initialized";
      if (req?.toolName !== undefined) headers["Mcp-Name"] = req.toolName;
    }
    return new Promise<RpcResponse>((resolve, reject) => {
      const r = httpRequest({ host: "127.0.0.1", port: this.port, path: "/mcp", method: "POST", headers, agent: this.agent, timeout: this.spec.timeoutMs }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString();
          const sid = res.headers["mcp-session-id"];
          if (typeof sid === "string" && this.sessionId === undefined) this.sessionId = sid;
          if (req === undefined) {
            if (res.statusCode === 202 || res.statusCode === 200) resolve({});
            else reject(new PercallProtocolError(`notification: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
            return;
          }
          if (res.statusCode !== 200) return reject(new PercallProtocolError(`${req.method}: HTTP ${res.statusCode}: ${text.slice(0, 200)}`));
          const type = res.headers["content-type"] ?? "";
          const messages = type.startsWith("text/event-stream") ? sseData(text) : [text];
          for (const m of messages) {
            const parsed = JSON.parse(m) as RpcResponse;
            if (parsed.method === undefined && parsed.id === req.id) return resolve(parsed);
          }
          reject(new PercallProtocolError(`${req.method}: the HTTP response carried no JSON-RPC response with id ${req.id}`));
        });
        res.on("error", reject);
      });
      r.on("timeout", () => r.destroy(new PercallProtocolError(`${req?.method ?? "notification"}: no answer within ${this.spec.timeoutMs} ms`)));
      r.on("error", reject);
      r.end(body);
    });
  }

  /**
   * Close the session and stop the target (stdio: end of stdin, then the process group's stop;
   * HTTP: SIGTERM, then SIGKILL after 3 s); resolves when it has exited.
   */
  async close(): Promise<void> {
    this.agent?.destroy();
    if (this.spec.transport === "stdio" && this.proc.exit() === undefined) {
      this.proc.child.stdin!.end();
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([this.proc.child, new Promise((r) => (timer = setTimeout(r, 3000)))]);
      clearTimeout(timer);
    }
    await this.proc.stop(3000);
  }
}

/** The `data:` payloads of the SSE events in `text` (multi-line data joined with `\n`). */
export function sseData(text: string): string[] {
  const out: string[] = [];
  for (const event of text.split(/\r?\n\r?\n/)) {
    const data = event
      .split(/\r?\n/)
      .filter((l) => l.startsWith("data:"))
      .map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length) out.push(data.join("\n"));
  }
  return out;
}
