//! The per-call workload (WIRECOST_WORKLOAD=tickets): search_tickets and get_tickets over the
//! ticket database that targets/workload/tickets.ts generates, read-only, with exactly the SQL of
//! tickets.ts, answering the compact JSON array of rows byte-identical to `JSON.stringify(rows)`.
//! This target never creates the database: it must exist.

use std::sync::{Arc, Mutex};

use rmcp::{
    handler::server::{common::schema_for_input, router::tool::ToolRoute, wrapper::Parameters},
    model::{CallToolResult, ContentBlock, Tool},
};
use rusqlite::{Connection, OpenFlags, OptionalExtension, Row};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::tools::Wirecost;

/// The column list of both queries in tickets.ts (the row's key order).
const TICKET_COLUMNS: &str = "id, subject, body, status, priority, customer, created_at AS createdAt";

/// One row; field order and JSON names are those of tickets.ts's Ticket.
#[derive(Serialize, Debug, Clone, PartialEq)]
pub struct Ticket {
    id: i64,
    subject: String,
    body: String,
    status: String,
    priority: String,
    customer: String,
    /// The created_at column (an ISO 8601 string).
    #[serde(rename = "createdAt")]
    created_at: String,
}

impl Ticket {
    /// The row in TICKET_COLUMNS order.
    fn from_row(r: &Row<'_>) -> rusqlite::Result<Self> {
        Ok(Self {
            id: r.get(0)?,
            subject: r.get(1)?,
            body: r.get(2)?,
            status: r.get(3)?,
            priority: r.get(4)?,
            customer: r.get(5)?,
            created_at: r.get(6)?,
        })
    }
}

/// The ticket database, opened read-only on first use (as tickets.ts does) and kept open. One
/// connection behind a mutex: calls on it run one at a time.
pub struct TicketStore {
    path: String,
    conn: Mutex<Option<Connection>>,
}

impl TicketStore {
    /// A store of the file at `path` (nothing is opened yet).
    pub fn new(path: impl Into<String>) -> Self {
        Self { path: path.into(), conn: Mutex::new(None) }
    }

    /// Runs `f` on the open connection, opening the file first if needed. Errors: the file is
    /// missing (naming it and the fix), or SQLite's error text.
    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T, String> {
        let mut guard = self.conn.lock().map_err(|_| "tickets database: a call panicked holding it".to_string())?;
        if guard.is_none() {
            if !std::path::Path::new(&self.path).exists() {
                return Err(format!(
                    "tickets database {} does not exist: create it with openTickets() from targets/workload/tickets.ts, or set WIRECOST_TICKETS_DB",
                    self.path
                ));
            }
            let conn = Connection::open_with_flags(&self.path, OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX)
                .map_err(|e| format!("tickets database {}: {e}", self.path))?;
            *guard = Some(conn);
        }
        f(guard.as_ref().expect("opened above")).map_err(|e| format!("tickets database {}: {e}", self.path))
    }

    /// The tickets whose subject or body contains `query` (SQL LIKE), lowest id first, at most
    /// `limit` rows. Errors: `limit` outside 1–1000 (tickets.ts's RangeError text), or the database.
    pub fn search_tickets(&self, query: &str, limit: i64) -> Result<Vec<Ticket>, String> {
        if !(1..=1000).contains(&limit) {
            return Err(format!("limit {limit} is not a whole number from 1 to 1000"));
        }
        let pattern = format!("%{query}%");
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!(
                "SELECT {TICKET_COLUMNS} FROM tickets WHERE subject LIKE ? OR body LIKE ? ORDER BY id LIMIT ?"
            ))?;
            stmt.query_map((&pattern, &pattern, limit), Ticket::from_row)?.collect()
        })
    }

    /// The tickets with these ids in the order given, unknown ids left out. Errors: more than 1000
    /// ids (tickets.ts's RangeError text), or the database.
    pub fn get_tickets(&self, ids: &[i64]) -> Result<Vec<Ticket>, String> {
        if ids.len() > 1000 {
            return Err(format!("{} ids asked for: at most 1000", ids.len()));
        }
        self.with(|c| {
            let mut stmt = c.prepare_cached(&format!("SELECT {TICKET_COLUMNS} FROM tickets WHERE id = ?"))?;
            let mut out = Vec::with_capacity(ids.len());
            for id in ids {
                if let Some(t) = stmt.query_row([id], Ticket::from_row).optional()? {
                    out.push(t);
                }
            }
            Ok(out)
        })
    }
}

/// The compact JSON of `rows` as JavaScript's JSON.stringify writes it (serde_json's compact
/// form: no HTML escaping, no trailing newline; the generated tickets are ASCII).
pub fn tickets_text(rows: &[Ticket]) -> String {
    serde_json::to_string(rows).expect("tickets serialise")
}

/// The input of search_tickets: `{"query": string, "limit": integer}`.
#[derive(Deserialize, JsonSchema)]
pub struct SearchArgs {
    query: String,
    limit: i64,
}

/// The input of get_tickets: `{"ids": integer[]}`.
#[derive(Deserialize, JsonSchema)]
pub struct GetArgs {
    ids: Vec<i64>,
}

/// A tool result of the rows' text, or an isError result carrying the error's text (as a thrown
/// error does in the TypeScript targets).
fn answer(rows: Result<Vec<Ticket>, String>) -> CallToolResult {
    match rows {
        Ok(rows) => CallToolResult::success(vec![ContentBlock::text(tickets_text(&rows))]),
        Err(e) => CallToolResult::error(vec![ContentBlock::text(e)]),
    }
}

/// The routes of search_tickets and get_tickets over `store`.
pub fn ticket_routes(store: Arc<TicketStore>) -> Vec<ToolRoute<Wirecost>> {
    let search_schema = schema_for_input::<SearchArgs>().expect("SearchArgs is an object");
    let get_schema = schema_for_input::<GetArgs>().expect("GetArgs is an object");
    let s = store.clone();
    vec![
        ToolRoute::new(Tool::new("search_tickets", "Search support tickets.", search_schema), move |Parameters(a): Parameters<SearchArgs>| {
            let store = s.clone();
            async move { answer(store.search_tickets(&a.query, a.limit)) }
        }),
        ToolRoute::new(Tool::new("get_tickets", "Get support tickets by id.", get_schema), move |Parameters(a): Parameters<GetArgs>| {
            let store = store.clone();
            async move { answer(store.get_tickets(&a.ids)) }
        }),
    ]
}
