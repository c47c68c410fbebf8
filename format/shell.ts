/** Shell quoting for every command wirecost prints or records (reproduce, resume, rerun, verify). */

/** Characters that need no shell quoting. */
const SHELL_SAFE = /^[A-Za-z0-9_./:=,+@%-]+$/;

/**
 * Quote one argument for a POSIX shell: unchanged when it holds only safe characters,
 * otherwise in single quotes with each `'` written as `'\''`.
 */
export function shellQuote(arg: string): string {
  return arg !== "" && SHELL_SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Escape every PCRE metacharacter in `text` so `grep -P` matches it literally. */
export function pcreLiteral(text: string): string {
  return text.replace(/[\\^$.|?*+()[\]{}]/g, (c) => `\\${c}`);
}
