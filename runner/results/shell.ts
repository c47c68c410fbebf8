/** Shell quoting for the commands the runner prints and records (reproduce, resume, rerun). */

/** Characters that need no shell quoting. */
const SHELL_SAFE = /^[A-Za-z0-9_./:=,+@%-]+$/;

/**
 * Quote one argument for a POSIX shell: unchanged when it holds only safe characters,
 * otherwise in single quotes with each `'` written as `'\''`.
 */
export function shellQuote(arg: string): string {
  return arg !== "" && SHELL_SAFE.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
