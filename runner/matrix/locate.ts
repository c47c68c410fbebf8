/**
 * Source positions in a parsed YAML document: `file:line:column` of the node at a path of keys
 * and indexes, or of a map's key (so an unknown key is pointed at itself, not at its value).
 */
import { isMap, isScalar, isSeq, type Document, type LineCounter, type Node } from "yaml";

/** A path into the document: map keys (strings) and sequence indexes (numbers). */
export type YamlPath = (string | number)[];

/** Child of `node` at one path segment, or undefined. Map keys compare as strings. */
function child(node: unknown, seg: string | number): unknown {
  if (isSeq(node)) return typeof seg === "number" ? node.items[seg] : node.items[Number(seg)];
  if (isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(seg));
    return pair?.value ?? undefined;
  }
  return undefined;
}

/** Key node of `key` in the map at `node`, or undefined. */
function keyNode(node: unknown, key: string): unknown {
  if (!isMap(node)) return undefined;
  return node.items.find((p) => isScalar(p.key) && String(p.key.value) === key)?.key ?? undefined;
}

/** A locator over one document; positions are 1-based. */
export class Locator {
  constructor(
    private readonly name: string,
    private readonly doc: Document,
    private readonly lc: LineCounter,
  ) {}

  private pos(node: unknown): string | undefined {
    const range = (node as Node | undefined)?.range;
    if (!range) return undefined;
    const p = this.lc.linePos(range[0]);
    return `${this.name}:${p.line}:${p.col}`;
  }

  /** `file:line:col` of the value at `path`, or of its nearest existing parent (the file's 1:1 at worst). */
  at(path: YamlPath): string {
    const nodes: unknown[] = [this.doc.contents];
    for (const seg of path) {
      const next = child(nodes[nodes.length - 1], seg);
      if (next === undefined || next === null) break;
      nodes.push(next);
    }
    for (let i = nodes.length - 1; i >= 0; i--) {
      const p = this.pos(nodes[i]);
      if (p) return p;
    }
    return `${this.name}:1:1`;
  }

  /** `file:line:col` of the key `key` in the map at `path` (falls back to the map's position). */
  key(path: YamlPath, key: string): string {
    let node: unknown = this.doc.contents;
    for (const seg of path) node = child(node, seg);
    return this.pos(keyNode(node, key)) ?? this.at(path);
  }
}
