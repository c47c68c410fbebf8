/**
 * Reader of a per-call folder's stage-attribution files (format/attribution.ts): the profiled
 * trial of each path, its stage table and its unclassified leaves. A folder written before the
 * profiled trials existed has none of them: {@link loadAttribution} then returns undefined.
 */
import { existsSync } from "node:fs";
import { resultsFile } from "../../format/layout.js";
import { readTsvRecords } from "../../format/tsv.js";

/** One row of a path's stage table. */
export interface StageRowRead {
  process: string;
  stage: string;
  label: string;
  kind: string;
  samples: number | null;
  /** µs per call; null when it could not be measured (`note` says why). */
  usPerCall: number | null;
  note: string;
}

/** One path's profiled trial. */
export interface ProfiledRead {
  config: string;
  status: string;
  reason: string;
  calls: number;
  windowUsPerCall: number | null;
  p50Us: number | null;
  meanUs: number | null;
  /** The same calls with the same phase pauses, unprofiled: wall time per call, µs (null: not recorded, e.g. a harness path). */
  pausedUsPerCall: number | null;
  /** A harness path's same calls unprofiled in the same process just before and after the window, no pauses: µs per call (null: not recorded, e.g. results written before it existed). */
  adjacentUsPerCall: number | null;
  stagesSumUs: number | null;
  clientSampler: string;
  serverSampler: string;
  /** Results-folder-relative paths of the folded stacks ("" when none). */
  clientProfile: string;
  serverProfile: string;
  directTarget: string;
  rows: StageRowRead[];
  unclassified: Array<{ process: string; frame: string; samples: number; usPerCall: number }>;
}

const numOrNull = (s: string | undefined): number | null => (s === undefined || s === "" ? null : Number(s));
const FIX = "re-run the per-call matrix into this folder (npx wirecost run MATRIX --results DIR)";

/**
 * The profiled trials of a per-call folder, by configuration id, or undefined when the folder holds none.
 * @throws UserError (format/tsv.ts) on a file that is not a TSV with its header
 */
export function loadAttribution(dir: string): Map<string, ProfiledRead> | undefined {
  const file = resultsFile(dir, "percallProfiled");
  if (!existsSync(file)) return undefined;
  const stages = existsSync(resultsFile(dir, "percallStages")) ? readTsvRecords(resultsFile(dir, "percallStages"), FIX) : [];
  const leaves = existsSync(resultsFile(dir, "percallUnclassified")) ? readTsvRecords(resultsFile(dir, "percallUnclassified"), FIX) : [];
  return new Map(
    readTsvRecords(file, FIX).map((p) => [
      p.config!,
      {
        config: p.config!,
        status: p.status ?? "",
        reason: p.reason ?? "",
        calls: Number(p.calls),
        windowUsPerCall: numOrNull(p.window_us_per_call),
        p50Us: numOrNull(p.profiled_p50_us),
        meanUs: numOrNull(p.profiled_mean_us),
        pausedUsPerCall: numOrNull(p.paused_us_per_call),
        adjacentUsPerCall: numOrNull(p.adjacent_us_per_call),
        stagesSumUs: numOrNull(p.stages_sum_us),
        clientSampler: p.client_sampler ?? "",
        serverSampler: p.server_sampler ?? "",
        clientProfile: p.client_profile ?? "",
        serverProfile: p.server_profile ?? "",
        directTarget: p.direct_target ?? "",
        rows: stages
          .filter((s) => s.config === p.config)
          .map((s) => ({
            process: s.process!,
            stage: s.stage!,
            label: s.label!,
            kind: s.kind!,
            samples: numOrNull(s.samples),
            usPerCall: numOrNull(s.us_per_call),
            note: s.note ?? "",
          })),
        unclassified: leaves
          .filter((u) => u.config === p.config)
          .map((u) => ({ process: u.process!, frame: u.frame!, samples: Number(u.samples), usPerCall: Number(u.us_per_call) })),
      },
    ]),
  );
}

/**
 * The site file a profile is copied to beside the page: `<stem>-<config>-<process>.folded` from its
 * results-folder path `profiles/<config>/<process>.folded`.
 * @throws Error on a path of another shape or a name with characters outside [A-Za-z0-9._-] (it never becomes a path unchecked)
 */
export function profileSiteFile(stem: string, rel: string): string {
  const m = /^profiles\/([A-Za-z0-9._-]+)\/(client|server)\.folded$/.exec(rel);
  if (!m || m[1]!.includes("..")) throw new Error(`profile path ${JSON.stringify(rel)} is not profiles/<config>/<client|server>.folded`);
  return `${stem}-${m[1]}-${m[2]}.folded`;
}

/** One server's CPU per request by stage, from a timing folder's `timings-stages.tsv`. */
export interface ServerStagesRead {
  config: string;
  sampler: string;
  /** The profiled window's measured CPU per request, µs (null when not measured). */
  windowCpuPerRequestUs: number | null;
  rows: StageRowRead[];
}

/**
 * The server stage tables of a timing folder, by configuration id, or undefined when it holds none.
 * @throws UserError (format/tsv.ts) on a file that is not a TSV with its header
 */
export function loadServerStages(dir: string): Map<string, ServerStagesRead> | undefined {
  const file = resultsFile(dir, "timingsStages");
  if (!existsSync(file)) return undefined;
  const out = new Map<string, ServerStagesRead>();
  for (const r of readTsvRecords(file, "re-run the timing matrix into this folder (npx wirecost run MATRIX --results DIR)")) {
    const s = out.get(r.config!) ?? { config: r.config!, sampler: r.sampler ?? "", windowCpuPerRequestUs: numOrNull(r.window_cpu_per_request_us), rows: [] };
    s.rows.push({
      process: "server",
      stage: r.stage!,
      label: r.label!,
      kind: r.kind!,
      samples: numOrNull(r.samples),
      usPerCall: numOrNull(r.us_per_request),
      note: r.note ?? "",
    });
    out.set(r.config!, s);
  }
  return out;
}
