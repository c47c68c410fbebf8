/**
 * TCP relay for HTTP capture: listens on 127.0.0.1, opens one upstream connection per client
 * connection, forwards bytes unchanged in both directions and logs each chunk (capture-log
 * format). It never parses what it forwards. Half-close is passed along; a reset on one side
 * destroys the other.
 */
import { createServer, connect, type Server, type Socket } from "node:net";
import { CaptureWriter } from "./writer.js";

/** A running relay. */
export interface Relay {
  /** Port it listens on (127.0.0.1). */
  port: number;
  /** Connections accepted so far. */
  connections(): number;
  /** Stop listening, destroy open connections, flush the log. */
  close(): Promise<void>;
}

/**
 * Start a relay to `127.0.0.1:upstreamPort`, logging to `logPath`.
 * @param listenPort 0 (default) lets the OS choose
 */
export async function startRelay(upstreamPort: number, logPath: string, listenPort = 0): Promise<Relay> {
  const log = new CaptureWriter(logPath);
  const sockets = new Set<Socket>();
  let conns = 0;
  const server: Server = createServer({ allowHalfOpen: true, noDelay: true }, (client) => {
    const conn = ++conns;
    const upstream = connect({ host: "127.0.0.1", port: upstreamPort, allowHalfOpen: true, noDelay: true });
    sockets.add(client).add(upstream);
    const pipe = (from: Socket, to: Socket, dir: "c2s" | "s2c") => {
      from.on("data", (d: Buffer) => {
        log.chunk(conn, dir, d);
        to.write(d);
      });
      from.on("end", () => {
        log.eof(conn, dir);
        to.end();
      });
      from.on("error", () => to.destroy());
      from.on("close", () => {
        sockets.delete(from);
        if (!from.readableEnded) to.destroy();
      });
    };
    pipe(client, upstream, "c2s");
    pipe(upstream, client, "s2c");
  });
  await new Promise<void>((res, rej) => {
    server.once("error", rej);
    server.listen(listenPort, "127.0.0.1", () => res());
  });
  const addr = server.address();
  const port = typeof addr === "object" && addr ? addr.port : listenPort;
  return {
    port,
    connections: () => conns,
    async close() {
      await new Promise<void>((res) => {
        server.close(() => res());
        for (const s of sockets) s.destroy();
      });
      await log.close();
    },
  };
}
