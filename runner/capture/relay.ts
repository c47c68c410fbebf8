/**
 * TCP relay for HTTP capture: listens on 127.0.0.1 only, opens one upstream connection (to
 * 127.0.0.1) per client connection, forwards bytes unchanged in both directions and logs each
 * chunk as it was read (capture-log format). It never parses what it forwards.
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

/** A running relay. */
export interface Relay {
  /** Port it listens on (127.0.0.1). */
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Application bytes relayed so far per direction (what the log holds), bytes. */
  bytes(): { c2s: number; s2c: number };
  /** Stop listening, destroy open connections, flush and close the log. Safe to call twice. */
  close(): Promise<void>;
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
 * @throws the listen error (e.g. EADDRINUSE) when the port cannot be bound; the log is closed then
 */
export async function startRelay(
  upstreamPort: number,
  logPath: string,
  listenPort = 0,
  onUpstreamError?: (conn: number, err: NodeJS.ErrnoException) => void,
  limit?: CaptureLimit,
): Promise<Relay> {
  const sockets = new Set<Socket>();
  const log = new CaptureWriter(logPath, limit?.limitBytes, (e) => {
    limit?.onLimit(e);
    for (const s of sockets) s.destroy();
  });
  let conns = 0;
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
    pipe(client, upstream, conn, "c2s");
    pipe(upstream, client, conn, "s2c");
  });

  /** Forward `from` → `to`, logging each chunk; see the module doc for half-close and resets. */
  function pipe(from: Socket, to: Socket, conn: number, dir: "c2s" | "s2c"): void {
    from.on("data", (d: Buffer) => {
      log.chunk(conn, dir, d);
      if (!to.destroyed && !to.write(d)) {
        from.pause();
        to.once("drain", () => from.resume());
      }
    });
    from.on("end", () => {
      log.eof(conn, dir);
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

  server.on("error", () => {
    /* after listening, errors are per connection and handled there */
  });
  try {
    await new Promise<void>((res, rej) => {
      server.once("error", rej);
      server.listen(listenPort, "127.0.0.1", () => {
        server.off("error", rej);
        res();
      });
    });
  } catch (e) {
    await log.close();
    throw e;
  }
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : listenPort;
  let closing: Promise<void> | undefined;
  return {
    port,
    connections: () => conns,
    bytes: () => ({ ...log.bytes }),
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
