/** Paths for tests: tests run compiled from dist/test/, the repo root is three levels up from a test file there. */
import { fileURLToPath } from "node:url";
import { dirname, resolve } from "node:path";

/** Absolute path of the repository root. */
export const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The compiled CLI. */
export const cli = resolve(root, "dist/bin/wirecost.js");
