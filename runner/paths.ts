/** Locations inside the installed package. */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

function findRoot(): string {
  let d = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(resolve(d, "package.json"))) {
    const up = dirname(d);
    if (up === d) throw new Error("wirecost: package.json not found above " + fileURLToPath(import.meta.url));
    d = up;
  }
  return d;
}

/** Absolute path of the wirecost package root (the folder holding package.json). */
export const repoRoot: string = findRoot();
