/**
 * The command checks now live in the shared preflight (runner/matrix/preflight.ts), which `expand`
 * and `run` both call; this re-export stays only until runner/execute/run-matrix.ts drops its
 * second call (`checkCommands` after `preflight`, which already ran the same checks).
 */
export { checkCommands } from "../matrix/preflight.js";
