/**
 * YAML documents into values, for every YAML file wirecost reads (a matrix, `predictions.yaml`):
 * the `yaml` package's limit on alias expansion (`maxAliasCount`, 100 by default: YAML 1.2 §3.2.2.2
 * aliases may repeat a node without bound, so a few lines can expand to billions of nodes, the
 * "billion laughs" document) becomes one {@link UserError} line at the alias, not a stack trace;
 * so do an alias inside the node it names (a circular value, `a: &a [*a]`) and nesting deeper
 * than {@link MAX_YAML_DEPTH} (which would overflow the stack of the parser or of a reader).
 */
import { isCollection, isPair, LineCounter, parseDocument, visit, type Document, type Node } from "yaml";
import { UserError } from "./errors.js";

/** Aliases a document may expand in all (the `yaml` package's default, kept explicit). */
export const MAX_ALIAS_COUNT = 100;

/** Does `node` hold an alias anywhere inside it? */
function holdsAlias(node: Node | null | undefined): boolean {
  if (!node || !isCollection(node)) return false;
  let found = false;
  visit(node, {
    Alias() {
      found = true;
      return visit.BREAK;
    },
  });
  return found;
}

/**
 * Where a document's aliases start to nest: the first alias whose anchored node holds aliases
 * itself (what an alias bomb is made of), else the first alias; the document's start without any.
 * @returns the offset in the text, characters
 */
function bombOffset(doc: Document): number {
  let first: number | undefined;
  let nested: number | undefined;
  visit(doc, {
    Alias(_key, alias) {
      first ??= alias.range?.[0];
      if (holdsAlias(alias.resolve(doc) as Node | undefined)) {
        nested = alias.range?.[0];
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return nested ?? first ?? 0;
}

/**
 * The document's value (`doc.toJS()`), its alias expansion bounded.
 * @param name the file as the user named it, for the message
 * @param lines the LineCounter the document was parsed with
 * @throws UserError `name:line:col: YAML alias *a names no anchor before it …` for an alias whose
 *   anchor is missing or comes later (YAML 1.2 §3.2.2.2: an alias refers to the most recent
 *   preceding node with that anchor); `name:line:col: YAML aliases expand past the alias limit (100) … — write the values out` when the aliases expand past {@link MAX_ALIAS_COUNT} (the `yaml` package counts each alias times the aliases inside what it names); `name:line:col: YAML alias inside the node it names …` for a circular alias
 */
export function yamlValue(doc: Document, lines: LineCounter, name: string): unknown {
  const unresolved = unresolvedAlias(doc);
  if (unresolved !== undefined) {
    const pos = lines.linePos(unresolved.offset);
    throw new UserError(
      `${name}:${pos.line}:${pos.col}: YAML alias *${unresolved.source} names no anchor before it — define &${unresolved.source} earlier in the file (an anchor must come before its aliases)`,
    );
  }
  const circular = circularAliasOffset(doc);
  if (circular !== undefined) {
    const pos = lines.linePos(circular);
    throw new UserError(`${name}:${pos.line}:${pos.col}: YAML alias inside the node it names (a value that holds itself) — write the values out instead`);
  }
  try {
    return doc.toJS({ maxAliasCount: MAX_ALIAS_COUNT });
  } catch (e) {
    if (!(e instanceof ReferenceError) || !/alias count/i.test(e.message)) throw e;
    const pos = lines.linePos(bombOffset(doc));
    throw new UserError(
      `${name}:${pos.line}:${pos.col}: YAML aliases expand past the alias limit (${MAX_ALIAS_COUNT}: aliases of nodes that hold aliases, from this one) — write the values out instead of nesting aliases`,
    );
  }
}

/** Deepest nesting of collections (maps and sequences) a YAML file of wirecost may hold; a matrix nests about 8. */
export const MAX_YAML_DEPTH = 64;

/** The refusal of a document nested past {@link MAX_YAML_DEPTH}, at `at` (`name:line:col`, or `name` where no position is known). */
function tooDeep(at: string): UserError {
  return new UserError(`${at}: YAML nested more than ${MAX_YAML_DEPTH} levels deep — write it flatter (a matrix nests about 8 levels)`);
}

/**
 * The first collection of `doc` nested deeper than {@link MAX_YAML_DEPTH}, found without recursion.
 * @returns its offset in the text (characters), or undefined when none is
 */
function tooDeepOffset(doc: Document): number | undefined {
  const stack: [unknown, number][] = [[doc.contents, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (isPair(node)) {
      stack.push([node.key, depth], [node.value, depth]);
      continue;
    }
    if (!isCollection(node)) continue;
    if (depth > MAX_YAML_DEPTH) return node.range?.[0] ?? 0;
    for (const item of node.items) stack.push([item, depth + 1]);
  }
  return undefined;
}

/**
 * Parse YAML `text` into a document with positions (`lines`), for {@link yamlValue}: the `yaml`
 * package's `parseDocument` with `options`, its syntax errors left in `doc.errors` for the caller
 * to word; nesting deeper than {@link MAX_YAML_DEPTH} refused.
 * @param name the file as the user named it, for the message
 * @throws UserError `name:line:col: YAML nested more than 64 levels deep — …` (only `name:` when
 *   the parser's own stack ran out before any position was known)
 */
export function parseYaml(text: string, name: string, options: { uniqueKeys?: boolean } = {}): { doc: Document; lines: LineCounter } {
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = parseDocument(text, { ...options, lineCounter: lines, prettyErrors: false });
  } catch (e) {
    if (e instanceof RangeError) throw tooDeep(name);
    throw e;
  }
  // The parser catches its own stack running out and reports it as a syntax error at the place.
  const overflow = doc.errors.find((e) => /call stack/i.test(e.message));
  if (overflow) {
    const pos = lines.linePos(overflow.pos[0]);
    throw tooDeep(`${name}:${pos.line}:${pos.col}`);
  }
  if (doc.errors.length === 0) {
    const deep = tooDeepOffset(doc);
    if (deep !== undefined) {
      const pos = lines.linePos(deep);
      throw tooDeep(`${name}:${pos.line}:${pos.col}`);
    }
  }
  return { doc, lines };
}

/** The first alias of `doc` with no anchor of its name before it: its name and offset in the text; undefined when there is none. */
function unresolvedAlias(doc: Document): { source: string; offset: number } | undefined {
  let found: { source: string; offset: number } | undefined;
  visit(doc, {
    Alias(_key, alias) {
      if (alias.resolve(doc) === undefined) {
        found = { source: alias.source, offset: alias.range?.[0] ?? 0 };
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * The first alias of `doc` that sits inside the node it names (its value would hold itself: `a:
 * &a [*a]`), as its offset in the text; undefined when there is none.
 */
function circularAliasOffset(doc: Document): number | undefined {
  let found: number | undefined;
  visit(doc, {
    Alias(_key, alias, path) {
      const target = alias.resolve(doc);
      if (target !== undefined && path.includes(target as never)) {
        found = alias.range?.[0] ?? 0;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}
