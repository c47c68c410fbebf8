/**
 * What the MCP targets share so their wire bytes compare: the fixed texts of the catalog, and the
 * reading of the knobs the runner passes in the environment (`WIRECOST_<AXIS>`).
 */

/** Description of each `tool_K` filler tool added by `WIRECOST_CATALOG`. */
export const FILLER_DESCRIPTION = "Catalog filler tool.";
/** The question `confirm` puts to the user. */
export const CONFIRM_MESSAGE = "Proceed?";

/** A configuration error a user can fix: the message names the variable and the fix. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

/**
 * A whole-number knob from the environment.
 * @returns `fallback` when `name` is unset or empty
 * @throws ConfigError naming the variable when the value is not a whole number ≥ `min`
 */
export function readCount(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || !Number.isSafeInteger(Number(raw))) {
    throw new ConfigError(`${name}=${raw} is not valid: set it to a whole number >= ${min}, or unset it for ${fallback}`);
  }
  return Number(raw);
}
