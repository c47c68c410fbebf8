package dev.wirecost.mcpjava;

import java.util.Map;

/**
 * What the target serves, from the environment (the knobs of targets/mcp-ts-v2).
 *
 * @param catalog tools listed: the first N of echo, add, confirm, tool_4, … ({@code WIRECOST_CATALOG},
 *     default 3, at least 1)
 * @param stateBytes {@code WIRECOST_STATE} (or {@code WIRECOST_STATE_BYTES}), default 0: read and
 *     checked for the common knob set, but unused: the SDK speaks no 2026-07-28, whose
 *     {@code input_required} result would carry it, and 2025-era state stays in-process
 */
record Knobs(int catalog, int stateBytes) {
  /** @throws IllegalArgumentException naming the variable and the fix when a value is bad */
  static Knobs fromEnv(Map<String, String> env) {
    String stateName = env.getOrDefault("WIRECOST_STATE", "").isEmpty() ? "WIRECOST_STATE_BYTES" : "WIRECOST_STATE";
    return new Knobs(count(env, "WIRECOST_CATALOG", 3, 1), count(env, stateName, 0, 0));
  }

  private static int count(Map<String, String> env, String name, int fallback, int min) {
    String raw = env.getOrDefault(name, "");
    if (raw.isEmpty()) return fallback;
    if (!raw.matches("[0-9]{1,9}") || Integer.parseInt(raw) < min)
      throw new IllegalArgumentException(
          name + "=" + raw + " is not valid: set it to a whole number >= " + min + ", or unset it for " + fallback);
    return Integer.parseInt(raw);
  }
}
