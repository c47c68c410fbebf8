/**
 * Placeholders in target commands (argv items and env values): `{name}` stands for the value of
 * axis `name` (or `{port}`, the HTTP port); `{{` and `}}` stand for a literal `{` and `}`.
 */

/** A placeholder (group 1: its name) or an escaped brace. */
const PLACEHOLDER = /\{\{|\}\}|\{([^{}]*)\}/g;

/** Names of the placeholders in `text`, in order (escaped braces are not placeholders). */
export function placeholderNames(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(PLACEHOLDER)) if (m[1] !== undefined) out.push(m[1]);
  return out;
}

/**
 * Replace `{name}` placeholders from `values`, `{{` and `}}` with `{` and `}`. A name missing from
 * `values` stays as written (unknown names are refused when the matrix is parsed).
 */
export function substitute(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (m, k: string | undefined) => (k === undefined ? m[0]! : (values[k] ?? m)));
}

/**
 * Replace only the placeholders named in `values`; everything else, escaped braces included, stays
 * as written (for substituting `{build}` when a matrix is parsed, before the per-run substitution).
 */
export function substituteKnown(text: string, values: Record<string, string>): string {
  return text.replace(PLACEHOLDER, (m, k: string | undefined) => (k !== undefined && Object.hasOwn(values, k) ? values[k]! : m));
}
