/**
 * Decoding short texts that repeat (HTTP start lines, JSON-RPC method names) without a new
 * string each time: a message in a capture mostly repeats one of the last few.
 */
import { decodeString } from "./json-scan.js";

/** How many recent texts a {@link RecentText} keeps. */
const KEPT = 4;

/**
 * The last {@link KEPT} texts decoded, with their bytes. `decode` returns the same string object
 * for the same bytes, so that maps keyed by it find its hash already computed.
 */
export class RecentText {
  private readonly texts: string[] = [];
  private readonly bytes: Buffer[] = [];
  private next = 0;

  /**
   * @param encoding `latin1`: the bytes as they are (HTTP heads); `utf8`: a JSON string literal,
   *   quotes included, decoded as JSON decodes it
   */
  constructor(private readonly encoding: "latin1" | "utf8") {}

  /** The text of b[s, e). */
  decode(b: Buffer, s: number, e: number): string {
    const n = e - s;
    for (let r = 0; r < this.bytes.length; r++) {
      const kept = this.bytes[r]!;
      if (kept.length !== n) continue;
      let k = 0;
      while (k < n && kept[k] === b[s + k]) k++;
      if (k === n) return this.texts[r]!;
    }
    const text = this.encoding === "latin1" ? b.toString("latin1", s, e) : decodeString(b, s, e);
    this.bytes[this.next] = Buffer.from(b.subarray(s, e));
    this.texts[this.next] = text;
    this.next = (this.next + 1) % KEPT;
    return text;
  }
}
