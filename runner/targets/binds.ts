/**
 * Loopback only (README, "What wirecost promises"): what a target and every process it started
 * bound, read from Linux's /proc/net/tcp, tcp6, udp and udp6 (elsewhere nothing is read and
 * nothing checked). A TCP listener or a UDP socket on any address other than loopback
 * (127.0.0.0/8, ::1) fails the run with one line naming it. Reading /proc/net/tcp costs about
 * 3.5 ms of system CPU here however few sockets it lists (the kernel walks its whole connection
 * table), so it is read once per check, and not at all when every socket the processes hold is a
 * Unix socket (/proc/net/unix: a child's stdio pipes from Node).
 */
import { readFileSync } from "node:fs";
import { socketInodes } from "./strays.js";

/** An address of /proc/net/tcp or tcp6 (hex words in host byte order, little-endian here) as text: `127.0.0.1`, `::`, `::ffff:10.0.0.1`. */
function procNetAddress(hex: string): string {
  const bytes = Buffer.alloc(hex.length / 2);
  for (let w = 0; w < hex.length / 8; w++) bytes.writeUInt32LE(Number.parseInt(hex.slice(w * 8, w * 8 + 8), 16), w * 4);
  if (bytes.length === 4) return [...bytes].join(".");
  if (bytes.subarray(0, 10).every((b) => b === 0) && bytes[10] === 0xff && bytes[11] === 0xff) return `::ffff:${[...bytes.subarray(12)].join(".")}`;
  const words: string[] = [];
  for (let i = 0; i < 16; i += 2) words.push(bytes.readUInt16BE(i).toString(16));
  return words
    .join(":")
    .replace(/(^|:)0(:0)+(:|$)/, "::")
    .replace(/:{3,}/, "::");
}

/** Is `address` (as {@link procNetAddress} writes it) a loopback address: 127.0.0.0/8, ::1, or 127.x mapped into IPv6? */
export function isLoopback(address: string): boolean {
  return /^(?:::ffff:)?127\./.test(address) || address === "::1";
}

/** One socket of /proc/net/{tcp,tcp6,udp,udp6}. */
interface ProcSocket {
  protocol: "TCP" | "UDP";
  /** `ADDRESS:PORT`, IPv6 in brackets. */
  local: string;
  address: string;
  port: number;
  /** State in hex: `0A` LISTEN (TCP), `07` unconnected (UDP). */
  state: string;
  inode: string;
}

/** Every socket of /proc/net/tcp, tcp6, udp and udp6; undefined where none of them can be read (not Linux). */
function procSockets(): ProcSocket[] | undefined {
  const found: ProcSocket[] = [];
  let read = false;
  for (const file of ["tcp", "tcp6", "udp", "udp6"]) {
    let text: string;
    try {
      text = readFileSync(`/proc/net/${file}`, "latin1");
    } catch {
      continue;
    }
    read = true;
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      const [hex, portHex] = (cols[1] ?? "").split(":");
      if (!hex || !portHex || cols[3] === undefined || cols[9] === undefined) continue;
      const address = procNetAddress(hex);
      const port = Number.parseInt(portHex, 16);
      const local = hex.length === 8 ? `${address}:${port}` : `[${address}]:${port}`;
      found.push({ protocol: file.startsWith("tcp") ? "TCP" : "UDP", local, address, port, state: cols[3], inode: cols[9] });
    }
  }
  return read ? found : undefined;
}

/**
 * The local addresses of the TCP sockets listening on `port` on this machine (state 0A, LISTEN),
 * as `ADDRESS:PORT` (IPv6 in brackets); undefined where /proc/net cannot be read (not Linux).
 */
export function listeningAddresses(port: number): string[] | undefined {
  return procSockets()
    ?.filter((s) => s.protocol === "TCP" && s.state === "0A" && s.port === port)
    .map((s) => s.local);
}

/**
 * Check that what listens on `port` listens on loopback only (wirecost's servers bind 127.0.0.1;
 * a target reachable from the network is a fault). Linux only: elsewhere nothing is checked.
 * @throws Error `target listens on 0.0.0.0:PORT, not on loopback only — bind it to 127.0.0.1` naming the first address that is not loopback
 */
export function checkLoopbackOnly(port: number): void {
  listenerOnLoopbackOnly(procSockets() ?? [], port);
}

/** {@link checkLoopbackOnly} on sockets already read. */
function listenerOnLoopbackOnly(sockets: readonly ProcSocket[], port: number): void {
  const open = sockets.find((s) => s.protocol === "TCP" && s.state === "0A" && s.port === port && !isLoopback(s.address));
  if (open) throw new Error(`target listens on ${open.local}, not on loopback only — bind it to 127.0.0.1 (wirecost measures on loopback only)`);
}

/** The inodes of the Unix sockets of /proc/net/unix (its Inode column); empty where it cannot be read. */
function unixSocketInodes(): Set<string> {
  try {
    return new Set(
      readFileSync("/proc/net/unix", "latin1")
        .split("\n")
        .slice(1)
        .map((line) => line.trim().split(/\s+/)[6] ?? "")
        .filter((inode) => inode !== ""),
    );
  } catch {
    return new Set();
  }
}

/**
 * Check what processes `pids` (a target's: its group, descendants and token holders) have bound:
 * a TCP listener or a UDP socket (bound, or connected from a local address) on an address other
 * than loopback is a fault, on any port (a second listener, one bound late, a stdio target's).
 * With `port`, what listens on that port (whoever holds it) is checked too, in the same reading
 * ({@link checkLoopbackOnly}). Linux only: elsewhere nothing is checked.
 * @throws Error `target listens on TCP 0.0.0.0:PORT (process PID), not on loopback only — bind it to 127.0.0.1 …` naming the first such socket
 */
export function checkBindsLoopbackOnly(pids: readonly number[], port?: number): void {
  const owner = new Map<string, number>();
  for (const pid of pids) for (const inode of socketInodes(pid)) owner.set(inode, pid);
  if (owner.size > 0 && port === undefined) {
    const unix = unixSocketInodes();
    for (const inode of [...owner.keys()]) if (unix.has(inode)) owner.delete(inode);
  }
  if (owner.size === 0 && port === undefined) return;
  const sockets = procSockets() ?? [];
  if (port !== undefined) listenerOnLoopbackOnly(sockets, port);
  const open = sockets.find(
    (s) =>
      owner.has(s.inode) &&
      !isLoopback(s.address) &&
      ((s.protocol === "TCP" && s.state === "0A") || (s.protocol === "UDP" && !(s.port === 0 && /^(?:0\.0\.0\.0|::)$/.test(s.address)))),
  );
  if (open)
    throw new Error(
      `target ${open.protocol === "TCP" ? "listens on TCP" : "binds UDP"} ${open.local} (process ${owner.get(open.inode)}), not on loopback only — bind it to 127.0.0.1 (wirecost measures on loopback only)`,
    );
}
