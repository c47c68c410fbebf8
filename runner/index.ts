/**
 * wirecost's library API: the CLI is a thin layer over these.
 * Rendering lives in `wirecost/generators` (it reads results files only).
 */
export { UserError } from "../format/errors.js";
export { loadMatrix, parseMatrix, BUILTIN_AXES } from "./matrix/parse.js";
export { expand, configId, type Expansion } from "./matrix/expand.js";
export type { Matrix, Axis, Target, Configuration, ExcludedCell } from "./matrix/types.js";
export { runMatrix, type RunOptions, type RunSummary } from "./execute/run-matrix.js";
export { countLog, COUNT_COLUMNS, ANOMALY_CODES, anomalyCounts, type CountRow, type CountOptions, type Anomaly, type AnomalyCode } from "./count/index.js";
export { readCaptureLog, parseCaptureLog, type CaptureRecord } from "./capture/log.js";
export { byteChangeCauses, BYTE_LAYERS, type ByteCause, type ByteChange, type ByteLayer, type RunCapture } from "./compare/causes.js";
export { compareResults, type Comparison, type CompareOptions } from "./compare/compare.js";
export { startRelay, type Relay } from "./capture/relay.js";
export { startTap, type Tap, type StdioChannel } from "./capture/tap.js";
