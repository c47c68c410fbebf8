/**
 * The relay's one change to what it forwards: each HTTP/1.1 request's Host header (RFC 9112 §3.2,
 * RFC 9110 §7.2) that names the relay's port names the server instead (`127.0.0.1:PORT`, or
 * `localhost:PORT` for a server given as localhost), as a reverse proxy names its upstream. A
 * server that checks Host against its own address (DNS-rebinding protection, e.g. `@playwright/mcp`:
 * "Access is only allowed at 127.0.0.1:PORT") then answers as it would a client that reached it
 * directly. The capture log keeps the client's bytes; only the server sees the rewritten header
 * (as many bytes when both name 127.0.0.1 and both ports have as many digits, as ephemeral ports do).
 *
 * Only the Host line is held back, until its line end: every other byte is forwarded as it
 * arrives, and bodies (Content-Length or chunked) are scanned for where they end. A stream that
 * stops looking like HTTP/1.1 requests (a first line that is not a request line, a line over
 * 64 KiB, a malformed length or chunk size, an Upgrade or CONNECT) is passed along unchanged from
 * there on.
 */

/** Longest start line, field line, chunk-size line or trailer line followed, bytes: past it the stream is passed along unchanged. */
const MAX_LINE_BYTES = 64 * 1024;
const REQUEST_LINE = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+ [^\x00-\x20\x7f]+ HTTP\/1\.[0-9]$/;
/** A Host field line whose value ends in a port (RFC 9110 §7.2: `uri-host [ ":" port ]`): name and spaces, value, port, the rest. */
const HOST_LINE = /^(host:[ \t]*)([^\r\n]*?:(\d+))([ \t]*\r?\n)$/i;

type State = "start-line" | "field-line" | "length" | "chunk-size" | "chunk-data" | "chunk-end" | "trailer" | "pass";

/**
 * One client-to-server stream's Host rewriting; one per relayed connection. Bytes are forwarded
 * as they arrive, except a field line that is (or may yet be) the Host line, held until its line end.
 */
export class HostRewriter {
  private state: State = "start-line";
  /** The current line so far (latin1). */
  private line = "";
  /** The current field line's bytes, held while it is or may be the Host line. */
  private held: Buffer[] = [];
  /** True when the current field line is known not to be the Host line (forwarded as read). */
  private notHost = false;
  /** The head's framing fields, read as its lines pass. */
  private framing: { contentLength?: string; transferEncoding?: string; upgrade?: boolean; connect?: boolean } = {};
  /** Bytes left of a Content-Length body or a chunk's data. */
  private remaining = 0;
  /** Request heads whose Host was rewritten. */
  rewrites = 0;
  /** Bytes the server received minus bytes the client sent (the Host values' lengths differ), summed. */
  deltaBytes = 0;

  /**
   * @param relayPort the port a client names when it addresses the relay
   * @param upstreamHost the Host value naming the server instead, `HOST:PORT` (e.g. `127.0.0.1:8931`)
   */
  constructor(
    private readonly relayPort: number,
    private readonly upstreamHost: string,
  ) {}

  /**
   * The next bytes the client sent.
   * @returns what to forward now, in order (nothing while a Host line is arriving; that line rewritten once whole)
   */
  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let at = 0;
    while (at < chunk.length) {
      if (this.state === "pass") {
        out.push(at === 0 ? chunk : chunk.subarray(at));
        break;
      }
      if (this.state === "length" || this.state === "chunk-data") {
        const n = Math.min(this.remaining, chunk.length - at);
        out.push(chunk.subarray(at, at + n));
        at += n;
        this.remaining -= n;
        if (this.remaining === 0) this.state = this.state === "length" ? "start-line" : "chunk-end";
        continue;
      }
      const lf = chunk.indexOf(0x0a, at);
      const take = lf === -1 ? chunk.length : lf + 1;
      this.readLinePart(chunk.subarray(at, take), lf !== -1, out);
      at = take;
    }
    return out;
  }

  /** Bytes held back (a Host line without its line end) when the client's stream ends: forwarded as they are. */
  flush(): Buffer[] {
    const held = this.held;
    this.held = [];
    this.state = "pass";
    return held;
  }

  /** Reads part of a line (`ended`: through its LF), forwarding it or holding it. */
  private readLinePart(part: Buffer, ended: boolean, out: Buffer[]): void {
    this.line += part.toString("latin1");
    if (this.line.length > MAX_LINE_BYTES) {
      out.push(...this.flush(), part);
      return;
    }
    if (this.state === "field-line" && !this.notHost) {
      const name = this.line.slice(0, 5).toLowerCase();
      if ("host:".startsWith(name) || name === "host:") this.held.push(part);
      else {
        this.notHost = true;
        out.push(...this.held.splice(0), part);
      }
    } else out.push(part);
    if (!ended) return;
    const line = this.line;
    this.line = "";
    this.notHost = false;
    if (this.held.length > 0) {
      this.held = [];
      out.push(this.rewriteHost(line));
    }
    this.endLine(line.replace(/\r?\n$/, ""));
  }

  /** The Host line `line` (line end included) naming the server when it names the relay's port. */
  private rewriteHost(line: string): Buffer {
    const host = HOST_LINE.exec(line);
    if (!host || Number(host[3]) !== this.relayPort) return Buffer.from(line, "latin1");
    this.rewrites++;
    this.deltaBytes += this.upstreamHost.length - host[2]!.length;
    return Buffer.from(`${host[1]}${this.upstreamHost}${host[4]}`, "latin1");
  }

  /** What a whole line (without its line end) means in the current state. */
  private endLine(line: string): void {
    switch (this.state) {
      case "start-line":
        // Empty lines before a request line are allowed (RFC 9112 §2.2).
        if (line === "") return;
        this.framing = { connect: line.startsWith("CONNECT ") };
        this.state = REQUEST_LINE.test(line) ? "field-line" : "pass";
        return;
      case "field-line": {
        if (line === "") return this.frameBody();
        const field = /^([^:]+):[ \t]*(.*?)[ \t]*$/.exec(line);
        const name = field?.[1]?.toLowerCase();
        if (name === "content-length") this.framing.contentLength = field![2];
        else if (name === "transfer-encoding") this.framing.transferEncoding = field![2];
        else if (name === "upgrade") this.framing.upgrade = true;
        return;
      }
      case "chunk-end":
        this.state = line === "" ? "chunk-size" : "pass";
        return;
      case "trailer":
        if (line === "") this.state = "start-line";
        return;
      case "chunk-size": {
        const size = /^([0-9A-Fa-f]{1,12})[ \t]*(?:;.*)?$/.exec(line);
        if (!size) this.state = "pass";
        else {
          this.remaining = Number.parseInt(size[1]!, 16);
          this.state = this.remaining === 0 ? "trailer" : "chunk-data";
        }
        return;
      }
    }
  }

  /** Decides, from the head just read, how its body ends (RFC 9112 §6.3 for requests). */
  private frameBody(): void {
    const { contentLength: cl, transferEncoding: te, upgrade, connect } = this.framing;
    if (upgrade || connect) this.state = "pass";
    else if (te !== undefined) this.state = /(?:^|,)[ \t]*chunked$/i.test(te) ? "chunk-size" : "pass";
    else if (cl === undefined) this.state = "start-line";
    else if (!/^\d{1,15}$/.test(cl)) this.state = "pass";
    else {
      this.remaining = Number(cl);
      this.state = this.remaining > 0 ? "length" : "start-line";
    }
  }
}
