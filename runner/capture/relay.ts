/**
 * TCP relay for HTTP capture: listens on 127.0.0.1 only, opens one upstream connection (to
 * 127.0.0.1) per client connection, forwards bytes in both directions and logs each chunk as it
 * was read (capture-log format). It changes one thing on the way: a request's Host header that
 * names the relay's port names the server's instead (host-header.ts), as a reverse proxy names
 * its upstream; the log keeps the client's bytes.
 *
 * - Byte-exact: every chunk read from one side is logged, then written to the other side, in order;
 *   writes respect back-pressure (the reading side pauses until the other side drains), so large
 *   bodies do not pile up in memory.
 * - Half-close is passed along: when one side ends its writing (FIN), `eof` is logged for that
 *   direction and the other side's writing is ended once the bytes before it are flushed.
 * - A reset (or any socket error) on one side resets and destroys the other side at once; the log
 *   keeps what was seen up to then and records no `eof` for a direction that did not end cleanly.
 * - Socket errors never escape as unhandled `error` events; a failed upstream connect (target gone)
 *   just closes the client's connection.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { CaptureWriter, type CaptureLimit } from "./writer.js";
import { HostRewriter } from "./host-header.js";

/** A running relay. */
export interface Relay {
  /** Port it listens on (127.0.0.1). */
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Application bytes relayed so far per direction (what the log holds), bytes. */
  bytes(): { c2s: number; s2c: number };
  /**
   * Requests whose Host header named the relay's port and were forwarded naming the server's, and
   * the bytes the server received beyond what the log holds for them (0 when both ports have as
   * many digits), summed over connections.
   */
  hostRewrites(): { requests: number; deltaBytes: number };
  /** Stop listening, destroy open connections, flush and close the log. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * Forward `from` → `to` (through `rewriter` when given), logging each chunk into `side.log` as
 * read; see the module doc for half-close and resets. A closed socket leaves `side.sockets`.
 */
function pipe(from: Socket, to: Socket, side: { conn: number; dir: "c2s" | "s2c"; log: CaptureWriter; sockets: Set<Socket> }, rewriter?: HostRewriter): void {
  const { conn, dir, log, sockets } = side;
  const forward = (parts: Buffer[]) => {
    let flowing = true;
    for (const part of parts) if (!to.destroyed && part.length > 0 && !to.write(part)) flowing = false;
    if (!flowing) {
      from.pause();
      to.once("drain", () => from.resume());
    }
  };
  from.on("data", (d: Buffer) => {
    log.chunk(conn, dir, d);
    forward(rewriter ? rewriter.push(d) : [d]);
  });
  from.on("end", () => {
    log.eof(conn, dir);
    if (rewriter) forward(rewriter.flush());
    if (!to.destroyed) to.end();
  });
  // A reset (or other error) is passed along as a reset, so the other peer sees it too.
  from.on("error", () => {
    if (!to.destroyed) to.resetAndDestroy();
  });
  from.on("close", () => {
    sockets.delete(from);
    // Closed without a clean end of its reading side (reset, error, destroy): tear down the other side too.
    if (!from.readableEnded) to.destroy();
  });
}

/**
 * Start a relay from 127.0.0.1:`listenPort` to `127.0.0.1:upstreamPort`, logging to `logPath`
 * (created or truncated).
 * @param upstreamPort the target's port on 127.0.0.1
 * @param logPath capture log file
 * @param listenPort 0 (default) lets the OS choose; see {@link Relay.port}
 * @param onUpstreamError called when a connection to the upstream fails before it is made (e.g.
 *   ECONNREFUSED: nothing listens there), with the client connection's number; the client's
 *   connection is closed either way
 * @param limit the log's limit of application bytes (writer.ts): past it `limit.onLimit` is called,
 *   then every connection is destroyed and later ones are closed at once (default: 64 MiB, no callback)
 * @param upstreamHostName how requests name the server in their Host header (host-header.ts): as
 *   the server was given, `127.0.0.1` (default) or `localhost`; the connection goes to 127.0.0.1 either way
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound; the log is closed then
 */
export async function startRelay(
  upstreamPort: number,
  logPath: string,
  listenPort = 0,
  onUpstreamError?: (conn: number, err: NodeJS.ErrnoException) => void,
  limit?: CaptureLimit,
  upstreamHostName: "127.0.0.1" | "localhost" = "127.0.0.1",
): Promise<Relay> {
  const sockets = new Set<Socket>();
  let port = listenPort;
  const log = new CaptureWriter(logPath, limit?.limitBytes, (e) => {
    limit?.onLimit(e);
    for (const s of sockets) s.destroy();
  });
  let conns = 0;
  const rewriters: HostRewriter[] = [];
  const server: Server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    if (log.overLimit) {
      client.destroy();
      return;
    }
    const conn = ++conns;
    const upstream = connect({ host: "127.0.0.1", port: upstreamPort, allowHalfOpen: true, noDelay: true });
    sockets.add(client).add(upstream);
    if (onUpstreamError) {
      const failed = (e: NodeJS.ErrnoException) => onUpstreamError(conn, e);
      upstream.once("error", failed);
      upstream.once("connect", () => upstream.off("error", failed));
    }
    const rewriter = new HostRewriter(port, `${upstreamHostName}:${upstreamPort}`);
    rewriters.push(rewriter);
    pipe(client, upstream, { conn, dir: "c2s", log, sockets }, rewriter);
    pipe(upstream, client, { conn, dir: "s2c", log, sockets });
  });

  server.on("error", () => {
    /* after listening, errors are per connection and handled there */
  });
  try {
    await new Promise<void>((res, rej) => {
      server.once("error", rej);
      server.listen(listenPort, "127.0.0.1", () => {
        server.off("error", rej);
        const addr = server.address();
        if (typeof addr === "object" && addr) port = addr.port;
        res();
      });
    });
  } catch (e) {
    await log.close();
    throw e;
  }
  let closing: Promise<void> | undefined;
  return {
    port,
    connections: () => conns,
    bytes: () => ({ ...log.bytes }),
    hostRewrites: () =>
      rewriters.reduce((a, r) => ({ requests: a.requests + r.rewrites, deltaBytes: a.deltaBytes + r.deltaBytes }), { requests: 0, deltaBytes: 0 }),
    close() {
      closing ??= (async () => {
        await new Promise<void>((res) => {
          server.close(() => res());
          for (const s of sockets) s.destroy();
        });
        await log.close();
      })();
      return closing;
    },
  };
}
