/**
 * The per-call workload: a support-ticket database in SQLite (better-sqlite3 12) and the two
 * functions every path calls — `searchTickets(query, limit)` and `getTickets(ids)`. One
 * implementation: the direct (in-process) path imports it, and both MCP targets register it as
 * tools (targets/mcp-ts-v1/factory.ts, targets/mcp-ts-v2/factory.ts with WIRECOST_WORKLOAD=tickets).
 *
 * The database is generated deterministically (seeded PRNG, fixed row count) on first use into a
 * file named by its generator version, written to a temporary name and renamed, so concurrent first
 * uses by several processes never see a half-written file.
 */
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";

/** Generator version: part of the file name, bumped whenever the rows would change. */
export const TICKETS_GENERATOR = "tickets-v1";
/** Number of tickets generated. */
export const TICKET_COUNT = 5000;
/** PRNG seed of the generator. */
export const TICKET_SEED = 20251125;

/** One ticket row as every path returns it (column order fixed). */
export interface Ticket {
  id: number;
  subject: string;
  body: string;
  status: string;
  priority: string;
  customer: string;
  createdAt: string;
}

/** mulberry32: a small seeded PRNG, uniform in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOPICS = ["refund", "invoice", "login", "shipping", "password", "upgrade", "cancellation", "export", "billing", "latency"];
const VERBS = ["cannot", "asks about", "reports a problem with", "wants help with", "is blocked by", "disputes"];
const WORDS = (
  "account order customer payment card charge receipt delivery warehouse tracking email address profile " +
  "session token browser mobile desktop report dashboard export import integration webhook timeout error " +
  "message screen button settings plan subscription renewal discount coupon tax region currency support " +
  "agent escalation priority weekend morning evening yesterday week month contract team admin"
).split(" ");
const STATUSES = ["open", "pending", "solved", "closed"];
const PRIORITIES = ["low", "normal", "high", "urgent"];

/** The deterministic ticket rows (ids 1..count), about 550–650 bytes of JSON each. */
export function generateTickets(count = TICKET_COUNT, seed = TICKET_SEED): Ticket[] {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (n: number): string => {
    const w: string[] = [];
    for (let i = 0; i < n; i++) w.push(pick(WORDS));
    const s = w.join(" ");
    return s.charAt(0).toUpperCase() + s.slice(1) + ".";
  };
  const rows: Ticket[] = [];
  const start = Date.UTC(2025, 0, 1);
  for (let id = 1; id <= count; id++) {
    const topic = pick(TOPICS);
    const customer = `customer-${String(1 + Math.floor(rand() * 900)).padStart(4, "0")}`;
    const body = [`Customer ${pick(VERBS)} a ${topic}.`, sentence(12), sentence(14), sentence(12), sentence(10), `Tagged ${topic} by triage.`].join(" ");
    rows.push({
      id,
      subject: `${topic.charAt(0).toUpperCase() + topic.slice(1)}: ${sentence(6)}`,
      body,
      status: pick(STATUSES),
      priority: pick(PRIORITIES),
      customer,
      createdAt: new Date(start + Math.floor(rand() * 300 * 86400) * 1000).toISOString(),
    });
  }
  return rows;
}

/** Where the database file lives: `WIRECOST_TICKETS_DIR` or `<os tmpdir>/wirecost`. */
export function ticketsDbPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.WIRECOST_TICKETS_DIR !== undefined && env.WIRECOST_TICKETS_DIR !== "" ? env.WIRECOST_TICKETS_DIR : join(tmpdir(), "wirecost");
  return join(dir, `${TICKETS_GENERATOR}-${TICKET_COUNT}-${TICKET_SEED}.sqlite`);
}

/** Write the database to `file` (temporary name, then rename) unless it already exists. */
function ensureDb(file: string): void {
  if (existsSync(file)) return;
  mkdirSync(join(file, ".."), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  rmSync(tmp, { force: true });
  const db = new Database(tmp);
  db.exec(
    "CREATE TABLE tickets (id INTEGER PRIMARY KEY, subject TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL, priority TEXT NOT NULL, customer TEXT NOT NULL, created_at TEXT NOT NULL);" +
      "CREATE INDEX tickets_status ON tickets(status);",
  );
  const insert = db.prepare("INSERT INTO tickets VALUES (@id, @subject, @body, @status, @priority, @customer, @createdAt)");
  db.transaction((rows: Ticket[]) => {
    for (const r of rows) insert.run(r);
  })(generateTickets());
  db.close();
  renameSync(tmp, file);
}

const COLUMNS = "id, subject, body, status, priority, customer, created_at AS createdAt";

/** An open ticket database with its prepared statements. */
export interface TicketStore {
  /**
   * Tickets whose subject or body contains `query` (SQL LIKE, case-insensitive for ASCII), lowest
   * id first, at most `limit` rows.
   * @throws RangeError when `limit` is not a whole number from 1 to 1000
   */
  searchTickets(query: string, limit: number): Ticket[];
  /**
   * The tickets with these ids, in the order given; unknown ids are left out.
   * @throws RangeError when more than 1000 ids are asked for
   */
  getTickets(ids: readonly number[]): Ticket[];
  /** Close the database. */
  close(): void;
}

/**
 * Open (creating on first use) the ticket database at `file` (default {@link ticketsDbPath}).
 * @throws Error from better-sqlite3 when the file cannot be created or opened
 */
export function openTickets(file: string = ticketsDbPath()): TicketStore {
  ensureDb(file);
  const db = new Database(file, { readonly: true });
  const search = db.prepare(`SELECT ${COLUMNS} FROM tickets WHERE subject LIKE ? OR body LIKE ? ORDER BY id LIMIT ?`);
  const byId = db.prepare(`SELECT ${COLUMNS} FROM tickets WHERE id = ?`);
  return {
    searchTickets(query, limit) {
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new RangeError(`limit ${limit} is not a whole number from 1 to 1000`);
      const pattern = `%${query}%`;
      return search.all(pattern, pattern, limit) as Ticket[];
    },
    getTickets(ids) {
      if (ids.length > 1000) throw new RangeError(`${ids.length} ids asked for: at most 1000`);
      const out: Ticket[] = [];
      for (const id of ids) {
        const row = byId.get(id) as Ticket | undefined;
        if (row !== undefined) out.push(row);
      }
      return out;
    },
    close() {
      db.close();
    },
  };
}

let shared: TicketStore | undefined;

/** The process-wide store (opened on first call); what the MCP tools and the direct path use. */
export function ticketStore(): TicketStore {
  shared ??= openTickets();
  return shared;
}

/** The text a tool call returns for rows: compact JSON of the array (what the direct path gets as objects). */
export function ticketsText(rows: readonly Ticket[]): string {
  return JSON.stringify(rows);
}
