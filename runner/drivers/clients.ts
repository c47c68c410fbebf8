/**
 * Names of the client drivers: the values the `client` axis may take. Kept apart from the
 * registry (drivers/index.ts, which loads the SDK clients) so that parsing a matrix stays light;
 * the registry's type makes the two lists agree. What each driver runs (flows, revisions) is
 * declared beside it, in declarations.ts.
 */
export const CLIENTS = ["raw", "sdk", "jsonrpc"] as const;

/** A value of the `client` axis. */
export type ClientName = (typeof CLIENTS)[number];
