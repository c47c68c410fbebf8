/**
 * The revision an SDK client's server spoke, checked on the messages its transport carries: the
 * SDK clients are someone else's code, so their transport (any SDK generation's, structurally) is
 * watched from outside — each request sent is recorded by id, each result received is checked
 * against the revision asked for ({@link RevisionWatch}, runner/drivers/mcp/revision.ts). The
 * SDK sees the same messages as without the watch.
 */
import { RevisionWatch } from "../mcp/revision.js";

/** The part of an SDK transport the watch wraps. */
interface WatchableTransport {
  send(message: unknown, ...rest: unknown[]): Promise<void>;
  onmessage?: (message: never, ...rest: never[]) => void;
}

/**
 * Watch `transport` (before the SDK client connects to it) for a revision mismatch.
 * @param transport an SDK `Transport` instance (v1 or v2, or wirecost's own stdio transports)
 * @param revision the revision the client asks for
 * @returns the watch: call `check()` after connecting and after the flow (it throws the first mismatch)
 */
export function watchRevision(transport: unknown, revision: string): RevisionWatch {
  const t = transport as WatchableTransport;
  const watch = new RevisionWatch(revision);
  const send = t.send.bind(t);
  t.send = (message: unknown, ...rest: unknown[]) => {
    watch.sent(message);
    return send(message, ...rest);
  };
  let handler = t.onmessage;
  Object.defineProperty(t, "onmessage", {
    configurable: true,
    enumerable: true,
    get: () => handler,
    set: (h: WatchableTransport["onmessage"]) => {
      handler =
        h === undefined
          ? undefined
          : (message: never, ...rest: never[]) => {
              watch.received(message);
              h(message, ...rest);
            };
    },
  });
  return watch;
}
