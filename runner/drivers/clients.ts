/**
 * Names of the client drivers: the values the `client` axis may take. Kept apart from the
 * registry (drivers/index.ts, which loads the SDK clients) so that parsing a matrix stays light;
 * the registry's type makes the two lists agree. What each driver runs (flows, revisions) is
 * declared beside it, in declarations.ts. `sdk` drives each target with its own SDK client
 * generation (the target's `sdkClient:`); `sdk-v1` and `sdk-v2` name one generation by value and
 * drive any MCP server with it (every client against every server).
 */
export const CLIENTS = ["raw", "sdk", "sdk-v1", "sdk-v2", "jsonrpc"] as const;

/** A value of the `client` axis. */
export type ClientName = (typeof CLIENTS)[number];
