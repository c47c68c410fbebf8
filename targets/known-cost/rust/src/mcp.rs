//! The MCP requests the known-cost server answers, and its three named functions.

use serde_json::{Value, json};

/// Each named function's CPU time per call, µs.
pub struct Costs {
    pub parse_and_validate_us: u64,
    pub do_work_us: u64,
    pub build_result_us: u64,
}

impl Costs {
    /// Reads `WIRECOST_KNOWN_COSTS`, `name=µs,…` with the names parse_and_validate, do_work and
    /// build_result (any subset; the rest keep their defaults 1500, 1000, 500). Errors name the bad item.
    pub fn parse(spec: &str) -> Result<Costs, String> {
        let mut c = Costs { parse_and_validate_us: 1500, do_work_us: 1000, build_result_us: 500 };
        for item in spec.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let bad = || format!("WIRECOST_KNOWN_COSTS item {item:?} is not name=µs (0-10000000)");
            let (name, value) = item.split_once('=').ok_or_else(bad)?;
            let us = value.parse::<u64>().ok().filter(|&us| us <= 10_000_000).ok_or_else(bad)?;
            match name {
                "parse_and_validate" => c.parse_and_validate_us = us,
                "do_work" => c.do_work_us = us,
                "build_result" => c.build_result_us = us,
                other => return Err(format!("WIRECOST_KNOWN_COSTS names {other:?}: the names are parse_and_validate, do_work, build_result")),
            }
        }
        Ok(c)
    }
}

/// Answers the MCP requests of one process; it keeps no state between requests.
pub struct Server {
    pub costs: Costs,
}

impl Server {
    /// Answers one JSON-RPC message: the answer's bytes, or None for a notification.
    pub fn handle(&self, raw: &[u8]) -> Option<Vec<u8>> {
        let msg: Value = match serde_json::from_slice(raw) {
            Ok(v) => v,
            Err(e) => return Some(answer(&Value::Null, Err((-32700, format!("parse error: {e}"))))),
        };
        let id = msg.get("id")?;
        let params = msg.get("params").cloned().unwrap_or(Value::Null);
        let result = match msg.get("method").and_then(Value::as_str).unwrap_or("") {
            "initialize" => {
                let asked = params.get("protocolVersion").and_then(Value::as_str);
                let version = if asked == Some("2025-06-18") { "2025-06-18" } else { "2025-11-25" };
                Ok(json!({
                    "protocolVersion": version,
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "known-cost-rust", "version": "1"},
                }))
            }
            "ping" => Ok(json!({})),
            "tools/list" => Ok(tools()),
            "tools/call" => parse_and_validate(&params, self.costs.parse_and_validate_us).map(|(name, args)| {
                let n = do_work(&args, self.costs.do_work_us);
                build_result(&name, n, self.costs.build_result_us)
            }),
            other => Err((-32601, format!("method not found: {other}"))),
        };
        Some(answer(id, result))
    }
}

/// The tools/list result: search_tickets and get_tickets.
fn tools() -> Value {
    json!({"tools": [
        {"name": "search_tickets", "description": "Search tickets (known cost)", "inputSchema": {
            "type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]}},
        {"name": "get_tickets", "description": "Get tickets by id (known cost)", "inputSchema": {
            "type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}, "required": ["ids"]}},
    ]})
}

/// Spends its known cost, then reads and checks the tools/call params: the tool's name and arguments.
#[inline(never)]
fn parse_and_validate(params: &Value, cost_us: u64) -> Result<(String, Value), (i64, String)> {
    spin(cost_us);
    let name = params.get("name").and_then(Value::as_str).unwrap_or("");
    if name != "search_tickets" && name != "get_tickets" {
        return Err((-32602, format!("unknown tool {name:?}")));
    }
    Ok((name.to_owned(), params.get("arguments").cloned().unwrap_or(Value::Null)))
}

/// Spends its known cost (the tool's work) and returns how many arguments the call had.
#[inline(never)]
fn do_work(args: &Value, cost_us: u64) -> usize {
    spin(cost_us);
    args.as_object().map_or(0, |o| o.len())
}

/// Spends its known cost, then builds the tools/call result.
#[inline(never)]
fn build_result(name: &str, arguments: usize, cost_us: u64) -> Value {
    spin(cost_us);
    json!({"content": [{"type": "text", "text": format!("{name} ran with {arguments} argument(s)")}]})
}

/// This thread's CPU time in ns (clock_gettime(CLOCK_THREAD_CPUTIME_ID)).
fn thread_cpu_ns() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: ts is a valid timespec the call writes; CLOCK_THREAD_CPUTIME_ID always exists on Linux.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}

/// Burns `us` µs of this thread's CPU time, read on its CPU clock (not the wall clock).
#[inline(never)]
fn spin(us: u64) {
    let end = thread_cpu_ns() + us * 1000;
    while thread_cpu_ns() < end {}
}

/// A JSON-RPC 2.0 response carrying `result` or its error.
fn answer(id: &Value, result: Result<Value, (i64, String)>) -> Vec<u8> {
    let body = match result {
        Ok(r) => json!({"jsonrpc": "2.0", "id": id, "result": r}),
        Err((code, message)) => json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}),
    };
    serde_json::to_vec(&body).expect("a JSON value always serialises")
}
