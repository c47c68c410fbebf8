/**
 * An error the user can fix: its message is one line naming the file (and line:column or key),
 * what is wrong, and the fix. The CLI prints the message alone and exits 1; any other error is a
 * bug and gets a stack trace.
 */
export class UserError extends Error {
  override name = "UserError";
}
