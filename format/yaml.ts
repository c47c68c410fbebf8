/**
 * YAML documents into values, for every YAML file wirecost reads (a matrix, `predictions.yaml`):
 * the `yaml` package's limit on alias expansion (`maxAliasCount`, 100 by default: YAML 1.2 §3.2.2.2
 * aliases may repeat a node without bound, so a few lines can expand to billions of nodes, the
 * "billion laughs" document) becomes one {@link UserError} line at the alias, not a stack trace.
 */
import { isCollection, visit, type Document, type LineCounter, type Node } from "yaml";
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
 * @throws UserError `name:line:col: YAML aliases expand past the alias limit (100) … — write the values out` when the aliases expand past {@link MAX_ALIAS_COUNT} (the `yaml` package counts each alias times the aliases inside what it names)
 */
export function yamlValue(doc: Document, lines: LineCounter, name: string): unknown {
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
