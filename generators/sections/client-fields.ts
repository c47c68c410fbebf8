/**
 * What a declared client (matrix `clients:`, run as a command: an IDE, the MCP Inspector, another
 * SDK's client) sends that wirecost's raw driver does not, by field, from the captured bytes as
 * `messages.tsv` records them: per JSON-RPC method, the JSON member paths of its C→S messages
 * (`json_fields`); over HTTP, the request header names (`header_names`) and the requests by
 * method and path (the start line without its version). Each declared client's configurations
 * are compared, per target, transport and revision, with the raw driver's configurations of the
 * same target, transport and revision (their first logged repeat each); a group without a raw
 * counterpart or without logs is left out.
 */
import { mdCell } from "../../format/markdown.js";
import { compareCodeUnits } from "../../format/order.js";
import { firstLoggedRepeat, readMessages, type MessageRow } from "../results/extra.js";
import type { ConfigSummary, Results } from "../results/load.js";
import { tableView, type TableView } from "../table.js";

/** What one side (the declared client, or the raw driver) sent on one target, transport and revision. */
interface Sent {
  /** JSON-RPC method → the member paths of its C→S messages. */
  fields: Map<string, Set<string>>;
  /** HTTP request header names (lower case). */
  headers: Set<string>;
  /** HTTP requests as `METHOD path`. */
  requests: Set<string>;
  /** Configurations read, with the repeat read. */
  read: string[];
}

/** One row of the section's table. */
interface FieldRow {
  client: string;
  where: string;
  part: string;
  only: string;
}

/** The section's view: a table (undefined when no declared client has a raw counterpart) and the configurations compared. */
export interface ClientFieldsView {
  table: TableView | undefined;
  /** One line per compared group (markdown, escaped): the client's configurations and the raw ones, with repeats. */
  sources: string[];
}

/** Add what the C→S rows of `messages` sent to `into`. */
function collect(messages: readonly MessageRow[], into: Sent): void {
  for (const m of messages) {
    if (m.dir !== "c2s") continue;
    if (m.kind === "http-only") {
      for (const h of m.headerNames) into.headers.add(h.toLowerCase());
      const [verb, path] = m.startLine.split(" ");
      if (verb && path) into.requests.add(`${verb} ${path}`);
      continue;
    }
    if (m.method === "" || m.jsonFields.length === 0) continue;
    const set = into.fields.get(m.method) ?? new Set<string>();
    for (const f of m.jsonFields) set.add(f);
    into.fields.set(m.method, set);
  }
}

/** What `configs` sent, from the first logged repeat of each. */
function sentBy(results: Results, configs: readonly ConfigSummary[]): Sent {
  const sent: Sent = { fields: new Map(), headers: new Set(), requests: new Set(), read: [] };
  for (const c of configs) {
    const repeat = firstLoggedRepeat(results.dir, c.config, results.runs);
    if (repeat === undefined) continue;
    const messages = readMessages(results.dir, c.config, repeat);
    if (messages === undefined) continue;
    collect(messages, sent);
    sent.read.push(`${c.config} #${repeat}`);
  }
  return sent;
}

const sorted = (s: Iterable<string>): string[] => [...s].sort(compareCodeUnits);
const minus = (a: ReadonlySet<string>, b: ReadonlySet<string> | undefined): string[] => sorted([...a].filter((x) => !b?.has(x)));

/**
 * The section (see the module doc).
 * @returns a view whose table is undefined when no declared client has a raw configuration of the
 *   same target, transport and revision with logs
 * @throws UserError when a messages.tsv is malformed
 */
export function clientFieldsView(results: Results): ClientFieldsView {
  const declared = results.provenance.declaredClients;
  const rows: FieldRow[] = [];
  const sources: string[] = [];
  if (declared.size === 0) return { table: undefined, sources };
  const key = (c: ConfigSummary) => ["target", "transport", "revision"].map((a) => c.axes.get(a) ?? "").join(" ");
  const groups = new Map<string, { client: string; mine: ConfigSummary[]; raw: ConfigSummary[] }>();
  for (const c of results.configs) {
    const client = c.axes.get("client") ?? "raw";
    if (!declared.has(client)) continue;
    const k = `${client} ${key(c)}`;
    const g = groups.get(k) ?? { client, mine: [], raw: [] };
    g.mine.push(c);
    groups.set(k, g);
  }
  for (const g of groups.values()) g.raw = results.configs.filter((c) => (c.axes.get("client") ?? "raw") === "raw" && key(c) === key(g.mine[0]!));
  for (const [, g] of [...groups].sort(([a], [b]) => compareCodeUnits(a, b))) {
    if (g.raw.length === 0) continue;
    const mine = sentBy(results, g.mine);
    const raw = sentBy(results, g.raw);
    if (mine.read.length === 0 || raw.read.length === 0) continue;
    const first = g.mine[0]!;
    const where = ["target", "transport", "revision"].map((a) => first.axes.get(a) ?? "").join(", ");
    const client = declared.get(g.client) ?? g.client;
    const add = (part: string, only: string[]) => {
      if (only.length) rows.push({ client, where, part, only: only.join(", ") });
    };
    for (const method of sorted(mine.fields.keys())) {
      const theirs = raw.fields.get(method);
      add(theirs ? `${method}: JSON fields` : `${method} (the raw driver's flows send no ${method})`, minus(mine.fields.get(method)!, theirs));
    }
    add("HTTP request headers", minus(mine.headers, raw.headers));
    add("HTTP requests", minus(mine.requests, raw.requests));
    sources.push(mdCell(`${client} (${where}): ${mine.read.join(", ")}; raw driver: ${raw.read.join(", ")}`));
  }
  if (rows.length === 0 && sources.length === 0) return { table: undefined, sources };
  const table = tableView<FieldRow>(
    [
      { header: "Client", align: "left", cell: (r) => r.client },
      { header: "Target, transport, revision", align: "left", cell: (r) => r.where },
      { header: "In", align: "left", cell: (r) => r.part },
      { header: "Sent by the client, not by the raw driver", align: "left", cell: (r) => r.only },
    ],
    rows,
  );
  return { table, sources };
}
