/**
 * Expand a matrix into configurations.
 *
 * Cells come from three sources, in this order: the main grid (the cartesian product of every
 * axis' values, restricted by `grid:`), include rules (the axes a rule names take its listed
 * values, the others their grid values), and sweeps (one axis varied around each base cell). A cell produced more than once
 * runs once, with the largest repeat and warm-up counts of its sources; a matching include rule's
 * own counts win over those (the last matching rule wins). Cells a target cannot serve, cells
 * matching an exclude rule (and no include rule), and cells left with 0 repeats are listed as
 * excluded with the reason.
 *
 * A cell left to run must be one its client can drive: when the matrix has a `client` axis, the
 * driver's declaration (runner/drivers/declarations.ts; for client `sdk`, that of the SDK client
 * its target names with `sdkClient:`; for a client declared under `clients:`, its `flows:` and
 * `revisions:`) must list the cell's flow and revision (a target declaring `inProcess:` or
 * `harness:` is driven by no client driver, so this does not apply to it). A declared client
 * without a command for the cell's transport leaves the cell out, with that reason. A cell that fails
 * this is an error, not an exclusion: the matrix says on purpose which cells it leaves out (an
 * exclude rule), so an undrivable cell it would run is a mistake in it.
 *
 * Ids join each axis' id part in declared order with "-"; an axis whose template is "" or whose
 * value equals its declared `default` contributes no part, so adding a value, or an axis with a
 * default, never changes an existing id.
 */
import { clientDeclaration, SDK_CLIENT_NAMES } from "../drivers/declarations.js";
import { UserError } from "../../format/errors.js";
import { MAX_NAME_BYTES, nameProblem } from "../../format/layout.js";
import type { Configuration, ExcludedCell, Match, Matrix } from "./types.js";
import { VERSION_AXIS, targetOf } from "./target-of.js";
import { flowsOf } from "./flows.js";

/** Result of expansion: configurations to run (in order), and cells left out with their reasons. */
export interface Expansion {
  configurations: Configuration[];
  excluded: ExcludedCell[];
}

type Path = (string | number)[];

/** Id part of `value` on axis `a`, or "" when the axis leaves ids alone for it. */
function idPart(a: Matrix["axes"][number], value: string): string {
  if (a.id === "" || (a.default !== undefined && value === a.default)) return "";
  return a.id.replaceAll("{}", value);
}

/** Id of the cell with these axis values (see the module comment for the rule). */
export function configId(m: Matrix, values: Record<string, string>): string {
  let id = "";
  for (const a of m.axes) {
    const p = idPart(a, values[a.name]!);
    if (p) id = id ? `${id}-${p}` : p;
  }
  return id;
}

/** A rule compiled to value-index sets per axis (undefined = any value). */
type Compiled = (Set<number> | undefined)[];

function compile(m: Matrix, match: Match): Compiled {
  return m.axes.map((a) => (match[a.name] ? new Set(match[a.name]!.map((v) => a.values.indexOf(v))) : undefined));
}

function matches(rule: Compiled, idx: number[]): boolean {
  for (let i = 0; i < rule.length; i++) if (rule[i] && !rule[i]!.has(idx[i]!)) return false;
  return true;
}

/**
 * The most cells {@link expand} makes: the product of the grid (every axis, or `grid:`'s values)
 * plus each `include:`'s and each sweep's. A matrix giving more is refused before any is made.
 */
export const MAX_CELLS = 100_000;

/** Call `f` with each index tuple of the product of `lists` (first list varies slowest); `f` must copy. */
function product(lists: number[][], f: (idx: number[]) => void): void {
  const n = lists.length;
  if (lists.some((l) => l.length === 0)) return;
  const pos = new Array<number>(n).fill(0);
  const idx = lists.map((l) => l[0]!);
  for (;;) {
    f(idx);
    let i = n - 1;
    while (i >= 0 && ++pos[i]! === lists[i]!.length) {
      pos[i] = 0;
      idx[i] = lists[i]![0]!;
      i--;
    }
    if (i < 0) return;
    idx[i] = lists[i]![pos[i]!]!;
  }
}

interface Cell {
  /** Mixed-radix code of the value indexes (axis 0 most significant). */
  code: number;
  id: string;
  repeats: number;
  repeatsFrom: Path;
  warmup: number;
}

/**
 * A name as a case-insensitive file system (macOS APFS and HFS+, Windows NTFS) compares it:
 * Unicode-normalised (NFC) and lower-cased. Two ids equal this way name one folder there.
 */
function foldCase(name: string): string {
  return name.normalize("NFC").toLowerCase();
}

/**
 * Expand `m` (see the module comment for the order and the counting rule).
 * @returns configurations with repeats ≥ 1 and warm-up ≥ 0, and the excluded cells with reasons
 * @throws UserError `file:line:col: …` when two different cells get the same id (fix the id
 *   templates), when a cell left to run has a flow or revision its client's driver does not
 *   declare, or client `sdk` with a target naming no `sdkClient:` (at the axis value at fault:
 *   the flow, revision or target), when a cell's id cannot be a file name, or a target or version
 *   value cannot name a build folder (format/layout.ts nameProblem: `/`, `..`, NUL, over 200
 *   bytes; at the value), when two cells' ids differ only in case (one folder on a case-insensitive
 *   file system; at the value that tells them apart), when the axes give more than
 *   {@link MAX_CELLS} cells (at `grid:` or `axes:`), or when nothing is left to run
 */
export function expand(m: Matrix): Expansion {
  const at = (...p: Path) => (m.locate ? m.locate(...p) : m.file);
  const grid = cellGrid(m, at);
  checkBuildFolderNames(m, at);
  const cells = new CellSet(m, at, grid);
  enumerateCells(m, at, cells);
  const { configurations, excluded, firstCause } = classifyCells(m, at, grid, cells.order);
  if (configurations.length === 0) {
    throw new UserError(
      `${at(...(firstCause ?? ["axes"]))}: the matrix expands to no configuration${excluded.length ? ` (all ${excluded.length} cells excluded, e.g. ${excluded[0]!.id}: ${excluded[0]!.reason})` : ""} — change this so that some cell is left to run (repeats ≥ 1, values a target serves, fewer exclude rules)`,
    );
  }
  return { configurations, excluded };
}

/** Where a path of the matrix file is written (`file:line:col`), or the file's name. */
type At = (...p: Path) => string;

/** The axes' cell geometry: each cell a code (mixed radix over the axes' value indices) and each value's id part. */
interface CellGrid {
  /** Number of axes. */
  n: number;
  /** Per axis, per value: its part of a configuration id ("" for a default or an empty template). */
  parts: string[][];
  /** Per axis: the code step of one value. */
  strides: number[];
  /** The value indices of a code, into `out`. */
  decode: (code: number, out: number[]) => number[];
}

/** The geometry of the matrix's cells. @throws UserError when the product of the axes is too large to number */
function cellGrid(m: Matrix, at: At): CellGrid {
  const axes = m.axes;
  const n = axes.length;
  const strides = new Array<number>(n);
  let size = 1;
  for (let i = n - 1; i >= 0; i--) {
    strides[i] = size;
    size *= axes[i]!.values.length;
  }
  if (!Number.isSafeInteger(size)) throw new UserError(`${at("axes")}: the full product of the axes has ${size} cells — too many to expand; split the matrix`);
  const decode = (code: number, out: number[]) => {
    for (let i = 0; i < n; i++) out[i] = Math.floor(code / strides[i]!) % axes[i]!.values.length;
    return out;
  };
  return { n, parts: axes.map((a) => a.values.map((v) => idPart(a, v))), strides, decode };
}

/** Target and version values name build folders (`.wirecost/build/<target>@<version>`): the configuration ids' rule holds for them too. */
function checkBuildFolderNames(m: Matrix, at: At): void {
  m.axes.forEach((a, i) => {
    if (a.name !== "target" && a.name !== VERSION_AXIS) return;
    a.values.forEach((v, j) => {
      const problem = nameProblem(v);
      if (problem !== undefined)
        throw new UserError(
          `${at("axes", i, "values", j)}: ${a.name} ${JSON.stringify(v.slice(0, 60))} ${problem} — it names a build folder: use a plain name`,
        );
    });
  });
}

/**
 * The cells the grid, include rules and sweeps make, each once by id, in the order first made; a
 * cell made again keeps the larger repeats and warm-up. Two cells with one id, or ids that differ
 * only in case, and an id that cannot be a file name are refused at the value at fault.
 */
class CellSet {
  readonly order: Cell[] = [];
  private readonly cells = new Map<string, Cell>();
  /** Cells by their id as a case-insensitive file system compares names ({@link foldCase}). */
  private readonly byFold = new Map<string, Cell>();

  constructor(
    private readonly m: Matrix,
    private readonly at: At,
    private readonly grid: CellGrid,
  ) {}

  /** Add the cell of value indices `idx`. @throws UserError as the class says */
  add(idx: number[], repeats: number, repeatsFrom: Path, warmup: number): void {
    const { n, parts, strides } = this.grid;
    let id = "";
    let code = 0;
    for (let i = 0; i < n; i++) {
      const p = parts[i]![idx[i]!]!;
      if (p) id = id ? `${id}-${p}` : p;
      code += idx[i]! * strides[i]!;
    }
    const old = this.cells.get(id);
    if (old) {
      if (old.code !== code) throw new UserError(this.sameId(old, idx, id));
      if (repeats > old.repeats) {
        old.repeats = repeats;
        old.repeatsFrom = repeatsFrom;
      }
      if (warmup > old.warmup) old.warmup = warmup;
      return;
    }
    const problem = nameProblem(id);
    if (problem !== undefined) throw new UserError(this.badId(id, idx, problem));
    const folded = foldCase(id);
    const twin = this.byFold.get(folded);
    if (twin) throw new UserError(this.caseTwin(twin, idx, id));
    const c: Cell = { code, id, repeats, repeatsFrom, warmup };
    this.cells.set(id, c);
    this.byFold.set(folded, c);
    this.order.push(c);
  }

  /** Two cells with one id, at the axis whose id template does not tell them apart. */
  private sameId(old: Cell, idx: number[], id: string): string {
    const axes = this.m.axes;
    const oldIdx = this.grid.decode(old.code, []);
    const d = oldIdx.findIndex((v, i) => v !== idx[i]);
    const a = axes[d]!;
    const show = (ix: number[]) => axes.map((ax, i) => `${ax.name}=${ax.values[ix[i]!]}`).join(",");
    return `${this.at("axes", d, a.id === "{}" ? "name" : "id")}: cells ${show(oldIdx)} and ${show(idx)} both get the id "${id}" — give axis "${a.name}" an id template that tells "${a.values[oldIdx[d]!]}" from "${a.values[idx[d]!]}" (e.g. ${a.name[0]}{})${a.default !== undefined ? ", or drop its default" : ""}`;
  }

  /** Two ids that differ only in case, at the value that makes them. */
  private caseTwin(twin: Cell, idx: number[], id: string): string {
    const axes = this.m.axes;
    const twinIdx = this.grid.decode(twin.code, []);
    const d = twinIdx.findIndex((v, i) => v !== idx[i]);
    return `${this.at("axes", d, "values", idx[d]!)}: configuration ids "${twin.id}" and "${id}" differ only in case — they would name one folder on a case-insensitive file system (macOS, Windows): change value ${JSON.stringify(axes[d]!.values[idx[d]!]!.slice(0, 60))} of axis "${axes[d]!.name}" (or its id template) so the ids differ in more than case`;
  }

  /**
   * `file:line:col: …` for a cell whose id cannot be a file name, at the axis value at fault: the
   * one whose id part cannot be one, else the longest part (a too long id), else the first axis.
   */
  private badId(id: string, idx: number[], problem: string): string {
    const { parts } = this.grid;
    const axes = this.m.axes;
    const own = idx.findIndex((v, i) => parts[i]![v]! !== "" && nameProblem(parts[i]![v]!) !== undefined);
    const longest = idx.reduce((best, v, i) => (parts[i]![v]!.length > parts[best]![idx[best]!]!.length ? i : best), 0);
    const d = own >= 0 ? own : longest;
    const shown = id.length > 60 ? `${id.slice(0, 60)}…` : id;
    return `${this.at("axes", d, "values", idx[d]!)}: configuration id ${JSON.stringify(shown)} ${problem} — change value ${JSON.stringify(axes[d]!.values[idx[d]!]!.slice(0, 60))} of axis "${axes[d]!.name}" (or its id template): ids name files in the results folder, so no "/" or control characters, not ".", ".." or "plan.json", at most ${MAX_NAME_BYTES} bytes`;
  }
}

const TOP: Path = ["repeats"];

/** Make every cell of the grid (or the full product), each include rule and each sweep. @throws UserError when they number over {@link MAX_CELLS} (counted before any is made) */
function enumerateCells(m: Matrix, at: At, cells: CellSet): void {
  const axes = m.axes;
  const all = axes.map((a) => a.values.map((_, i) => i));
  const gridLists = m.grid ? axes.map((a, i) => (m.grid![a.name] ? m.grid![a.name]!.map((v) => a.values.indexOf(v)) : all[i]!)) : all;
  const includeLists = (m.include ?? []).map((r) => compile(m, r.match).map((s, j) => (s ? [...s] : gridLists[j]!)));
  const sweepLists = (m.sweeps ?? []).map((s) => axes.map((a) => (a.name === s.axis ? s.values : s.base[a.name]!).map((v) => a.values.indexOf(v))));
  // Counted before any is made: a product of billions would run out of memory while enumerating.
  const cellCount = [gridLists, ...includeLists, ...sweepLists].reduce((sum, lists) => sum + lists.reduce((p, l) => p * l.length, 1), 0);
  if (cellCount > MAX_CELLS)
    throw new UserError(
      `${at(m.grid ? "grid" : "axes")}: the axes give ${cellCount.toLocaleString("en-US")} cells (${gridLists.map((l) => l.length).join(" × ")}${includeLists.length + sweepLists.length > 0 ? ", with include: and sweeps:" : ""}), over the limit of ${MAX_CELLS.toLocaleString("en-US")} configurations — split the matrix, or narrow it with grid: or fewer axis values`,
    );
  const topWarmup = m.warmup ?? 0;
  product(gridLists, (idx) => cells.add(idx, m.repeats, TOP, topWarmup));
  (m.include ?? []).forEach((r, i) => {
    const from: Path = r.repeats !== undefined ? ["include", i, "repeats"] : TOP;
    product(includeLists[i]!, (idx) => cells.add(idx, r.repeats ?? m.repeats, from, r.warmup ?? topWarmup));
  });
  (m.sweeps ?? []).forEach((s, i) => {
    const from: Path = s.repeats !== undefined ? ["sweeps", i, "repeats"] : TOP;
    product(sweepLists[i]!, (idx) => cells.add(idx, s.repeats ?? m.repeats, from, s.warmup ?? topWarmup));
  });
}

/** The positions of the built-in axes (-1: the matrix has none). */
interface BuiltinAxes {
  client: number;
  target: number;
  transport: number;
  revision: number;
  flow: number;
  version: number;
}

function builtinAxes(m: Matrix): BuiltinAxes {
  const of = (name: string) => m.axes.findIndex((a) => a.name === name);
  return { client: of("client"), target: of("target"), transport: of("transport"), revision: of("revision"), flow: of("flow"), version: of(VERSION_AXIS) };
}

/** Why the cell's target cannot serve it, with the path of the cause, or undefined. */
function unsupported(m: Matrix, ax: BuiltinAxes, v: Record<string, string>): [string, Path] | undefined {
  if (ax.target < 0) return undefined;
  const declared = m.targets[v.target!]!;
  if (ax.version >= 0 && declared.versions && !declared.versions.includes(v.version!))
    return [`target ${v.target} does not list version ${v.version} (versions: ${declared.versions.join(", ")})`, ["targets", v.target!, "versions"]];
  const versionDefault = ax.version >= 0 ? m.axes[ax.version]!.default : undefined;
  if (ax.version >= 0 && !declared.versions && v.version !== versionDefault)
    return [
      `target ${v.target} lists no versions: it runs only the ${VERSION_AXIS} axis' default${versionDefault === undefined ? " (the axis has none)" : ` ${versionDefault}`}`,
      ["targets", v.target!],
    ];
  const t = targetOf(m, v)!;
  const tr = ax.transport >= 0;
  if (tr && t.harness && !t.harness.transports.includes(v.transport!))
    return [
      `target ${t.name} is a harness that measures the ${t.harness.transports.join(" and ")} path${t.harness.transports.length > 1 ? "s" : ""} only (harness.transport)`,
      ["targets", t.name, "harness", "transport"],
    ];
  if (tr && t.inProcess && v.transport !== "in-process")
    return [`target ${t.name} runs in-process only (it declares inProcess)`, ["targets", t.name, "inProcess"]];
  if (tr && !t.inProcess && !t.harness && v.transport === "in-process")
    return [`target ${t.name} starts a server; only a target declaring inProcess runs in-process`, ["targets", t.name]];
  if (tr && !t.inProcess && !t.harness && !t.commands[v.transport as "stdio" | "http"])
    return [`target ${t.name} declares no ${v.transport} command`, ["targets", t.name]];
  if (ax.revision >= 0 && t.revisions && !t.revisions.includes(v.revision!)) {
    const probed = t.revisionsSkipped?.[v.revision!];
    const why = probed === undefined ? `revisions: ${t.revisions.join(", ")}` : `revisions: auto found ${t.revisions.join(", ") || "none"}; ${probed}`;
    return [`target ${t.name} does not speak revision ${v.revision} (${why})`, ["targets", t.name, "revisions"]];
  }
  if (ax.flow >= 0 && t.flows && !t.flows.includes(v.flow!))
    return [`target ${t.name} does not serve flow ${v.flow} (flows: ${t.flows.join(", ")})`, ["targets", t.name, "flows"]];
  const dc = v.client !== undefined ? m.clients?.[v.client] : undefined;
  if (dc && tr && !dc.commands[v.transport as "stdio" | "http"]) return [`client ${dc.name} declares no ${v.transport} command`, ["clients", dc.name]];
  return undefined;
}

/**
 * Why the cell's client cannot drive it, as `file:line:col: what — fix` at the value at fault, or
 * undefined (also when the matrix has no client axis: nothing names a driver).
 */
function undrivable(m: Matrix, at: At, ax: BuiltinAxes, id: string, v: Record<string, string>): string | undefined {
  if (ax.client < 0) return undefined;
  /** Where value `value` of axis `i` is written in the file. */
  const valueAt = (i: number, value: string) => at("axes", i, "values", m.axes[i]!.values.indexOf(value));
  const client = v.client!;
  const t = ax.target >= 0 ? targetOf(m, v) : undefined;
  // No client driver drives it (called in-process, or a harness with its own client): only the
  // axis' `raw` (the default) names no driver there; any other client would label a row it never drove.
  if (t?.inProcess || t?.harness) {
    if (client === "raw") return undefined;
    const how = t.inProcess ? "is called in-process (inProcess:), with no client" : "is a harness that brings its own client (harness:)";
    return `${valueAt(ax.target, t.name)}: client ${client} cannot drive target ${t.name} (configuration ${id}): it ${how} — leave the cells out with an exclude rule: - match: { client: ${client}, target: ${t.name} }`;
  }
  const dc = m.clients?.[client];
  const driverDecl = dc ? { flows: Object.keys(dc.flows), revisions: dc.revisions } : clientDeclaration(client, t?.sdkClient);
  const decl = driverDecl && { flows: driverDecl.flows ?? Object.keys(flowsOf(m)), revisions: driverDecl.revisions };
  const leaveOut = (match: string) => `or leave the cells out with an exclude rule: - match: { client: ${client}, ${match} }`;
  if (!decl) {
    if (client !== "sdk" || !t) return undefined; // other client names are refused when the matrix is parsed
    return `${valueAt(ax.target, t.name)}: client sdk cannot drive target ${t.name} (configuration ${id}): the target names no SDK client — add sdkClient: ${SDK_CLIENT_NAMES.join(" or ")} to targets.${t.name} (the MCP TypeScript SDK generation whose client drives it), ${leaveOut(`target: ${t.name}`)}`;
  }
  const who = client === "sdk" ? `client sdk (the ${t!.sdkClient} SDK client, sdkClient of target ${t!.name})` : `client ${client}`;
  const onTarget = client === "sdk" ? `target: ${t!.name}, ` : "";
  if (ax.flow >= 0 && !decl.flows.includes(v.flow!)) {
    const orDeclare = driverDecl.flows === undefined ? `declare it under flows: (its steps), ` : "";
    return `${valueAt(ax.flow, v.flow!)}: ${who} does not run flow "${v.flow}" (configuration ${id}; it runs: ${decl.flows.join(", ")}) — use one of those flows, ${orDeclare}${leaveOut(`${onTarget}flow: ${JSON.stringify(v.flow)}`)}`;
  }
  if (ax.revision >= 0 && decl.revisions !== undefined && !decl.revisions.includes(v.revision!)) {
    return `${valueAt(ax.revision, v.revision!)}: ${who} does not speak revision "${v.revision}" (configuration ${id}; it speaks: ${decl.revisions.join(", ")}) — use one of those revisions, ${leaveOut(`${onTarget}revision: ${JSON.stringify(v.revision)}`)}`;
  }
  return undefined;
}

/** A cell's repeats and warm-up after the include rules that match it (the last listed wins), and whether any does. */
function includedAs(m: Matrix, includes: Compiled[], idx: number[], c: Cell): { repeats: number; repeatsFrom: Path; warmup: number; included: boolean } {
  let { repeats, repeatsFrom, warmup } = c;
  let included = false;
  for (let k = includes.length - 1; k >= 0; k--) {
    if (!matches(includes[k]!, idx)) continue;
    const r = (m.include ?? [])[k]!;
    if (!included && r.repeats !== undefined) {
      repeats = r.repeats;
      repeatsFrom = ["include", k, "repeats"];
    }
    if (!included && r.warmup !== undefined) warmup = r.warmup;
    included = true;
  }
  return { repeats, repeatsFrom, warmup, included };
}

/**
 * Each cell a configuration or an excluded cell with its reason: a target that cannot serve it,
 * an exclude rule (unless an include rule matches it), or repeats 0. The causes are cached per
 * combination of the built-in axes (a matrix may have 100,000 cells).
 * @throws UserError when a configuration's client cannot drive it ({@link undrivable})
 */
function classifyCells(
  m: Matrix,
  at: At,
  grid: CellGrid,
  order: readonly Cell[],
): { configurations: Configuration[]; excluded: ExcludedCell[]; firstCause: Path | undefined } {
  const axes = m.axes;
  const ax = builtinAxes(m);
  const includes = (m.include ?? []).map((r) => compile(m, r.match));
  const excludes = (m.exclude ?? []).map((r, i) => ({ r, c: compile(m, r.match), i }));
  const configurations: Configuration[] = [];
  const excluded: ExcludedCell[] = [];
  let firstCause: Path | undefined;
  const idx = new Array<number>(grid.n).fill(0);
  const supportCache = new Map<string, [string, Path] | undefined>();
  const driveCache = new Map<string, boolean>();
  const at1 = (i: number) => (i < 0 ? -1 : idx[i]);
  for (const c of order) {
    grid.decode(c.code, idx);
    const values: Record<string, string> = {};
    for (let i = 0; i < grid.n; i++) values[axes[i]!.name] = axes[i]!.values[idx[i]!]!;
    let reason: string | undefined;
    let cause: Path = [];
    const sk = ax.target < 0 ? "" : `${idx[ax.target]},${at1(ax.transport)},${at1(ax.revision)},${at1(ax.flow)},${at1(ax.version)},${at1(ax.client)}`;
    let hard = supportCache.get(sk);
    if (hard === undefined && !supportCache.has(sk)) supportCache.set(sk, (hard = unsupported(m, ax, values)));
    const { repeats, repeatsFrom, warmup, included } = includedAs(m, includes, idx, c);
    if (hard) [reason, cause] = hard;
    else if (!included) {
      const ex = excludes.find((e) => matches(e.c, idx));
      if (ex) {
        reason = ex.r.reason ?? `matches ${ex.r.label}`;
        cause = ["exclude", ex.i];
      }
    }
    if (!reason && repeats === 0) {
      reason = `repeats is 0 (${keyOf(repeatsFrom)} at ${at(...repeatsFrom)})`;
      cause = repeatsFrom;
    }
    if (reason) {
      excluded.push({ id: c.id, values, reason });
      firstCause ??= cause;
      continue;
    }
    const dk = ax.client < 0 ? "" : `${idx[ax.client]},${sk}`;
    if (!driveCache.get(dk)) {
      const why = undrivable(m, at, ax, c.id, values);
      if (why) throw new UserError(why);
      driveCache.set(dk, true);
    }
    configurations.push({ id: c.id, values, repeats, warmup });
  }
  return { configurations, excluded, firstCause };
}

function keyOf(p: Path): string {
  return p.map((s, i) => (typeof s === "number" ? `[${s}]` : i ? `.${s}` : s)).join("");
}

/** Compile a glob on configuration ids (`*` any run of characters, `?` one) into an anchored RegExp. */
export function glob(p: string): RegExp {
  return new RegExp(
    "^" +
      p
        .replace(/[.+^${}()|[\]\\]/g, "\\$&")
        .replace(/\*/g, ".*")
        .replace(/\?/g, ".") +
      "$",
  );
}
