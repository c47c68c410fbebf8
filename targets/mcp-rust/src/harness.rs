//! The per-call harness in Rust (README "Per-call harnesses in other languages", harness protocol 1):
//!
//! ```text
//! mcp-rust --harness direct   # TicketStore::search_tickets in this process
//! mcp-rust --harness sdk      # WIRECOST_TRANSPORT=stdio|http: rmcp's client against this binary as the server
//! ```
//!
//! `direct` calls the tickets store's `search_tickets` (tickets.rs, the function the server's tool
//! runs) in this process. `sdk` starts this same binary as the server (`--transport stdio` as a
//! child through rmcp's `TokioChildProcess`, or `--transport http --port 0` on 127.0.0.1 through
//! rmcp's `StreamableHttpClientTransport` on reqwest, the port read from its `listening on` line)
//! with WIRECOST_WORKLOAD=tickets, opens a client session at WIRECOST_REVISION (2025-11-25:
//! `initialize`; 2026-07-28: `server/discover`), lists the tools, makes one call and discards it,
//! makes WIRECOST_WARMUP_CALLS more, then times WIRECOST_CALLS `call_tool("search_tickets")` one at
//! a time. Then, when asked, the loops (WIRECOST_LOOP_IDS, WIRECOST_LOOP_REPEATS) and the payload
//! sweep (WIRECOST_PAYLOAD_LIMITS, WIRECOST_PAYLOAD_CALLS). It prints one JSON object on stdout
//! (the protocol's; logs on stderr). In the profiled trial (WIRECOST_PROFILE_WINDOW) the harness
//! process opens its own signal window on WIRECOST_PROFILE_OUT and starts its server child with
//! WIRECOST_PROFILE_OUT=$WIRECOST_PROFILE_SERVER_OUT (targets/common/profile-window), so each writes
//! its own profile. Exit status 0 with it printed, 2 on a bad argument or variable (one line naming
//! it), 1 when the measurement fails (one line on stderr, nothing on stdout).
//!
//! Another server (harness protocol, "Another server"): as a client declared under `clients:`,
//! `mcp-rust --harness sdk -- SERVER ARGV...` (WIRECOST_TRANSPORT=stdio) starts that command in
//! place of this binary, in its own working folder, and `mcp-rust --harness sdk --url URL`
//! (WIRECOST_TRANSPORT=http) drives the server wirecost started there; against a URL the output
//! has no setup (this process did not start the server) and the profile window no server pid.

use std::{
    path::{Path, PathBuf},
    process::{ExitCode, Stdio},
    sync::Arc,
    time::{Duration, Instant},
};

use rmcp::{
    RoleClient,
    model::{CallToolRequestParams, ClientCapabilities, ClientConfig, Implementation, ProtocolVersion},
    service::{ClientLifecycleMode, ClientServiceExt, Peer, RunningService},
    transport::{StreamableHttpClientTransport, TokioChildProcess},
};
use serde::Serialize;
use serde_json::json;
use tokio::io::{AsyncBufReadExt, BufReader};

use crate::tickets::{TicketStore, tickets_text};

/// The harness protocol version printed as wirecostHarness.
const PROTOCOL: u32 = 1;
/// Printed after every usage error of --harness.
pub const HARNESS_USAGE: &str =
    "usage: mcp-rust --harness direct | --harness sdk (WIRECOST_TRANSPORT=stdio|http) [-- SERVER ARGV... | --url http://127.0.0.1:PORT/PATH]";
/// The client's implementation, sent in initialize and in every 2026-07-28 request's `_meta`.
const CLIENT_NAME: &str = "wirecost-rust-harness";
/// Bounds the wait for the HTTP server's `listening on` line.
const SERVER_START: Duration = Duration::from_secs(30);
/// Bounds each wait of the profile window for wirecost's go and release files.
const WINDOW_WAIT: Duration = Duration::from_secs(120);

/// A bad argument or variable (exit 2), or a failed measurement (exit 1).
enum Failure {
    Usage(String),
    Measure(String),
}

/// A measurement error, from anything printable.
fn fail(e: impl std::fmt::Display) -> Failure {
    Failure::Measure(e.to_string())
}

/// What wirecost asks for, from the environment.
struct Settings {
    db: String,
    query: String,
    revision: String,
    transport: String,
    /// search_tickets' row limit.
    limit: i64,
    /// Timed calls and warm-up calls.
    calls: usize,
    warmup_calls: usize,
    /// get_tickets' ids (empty: no loops) and the timed repeats.
    loop_ids: Vec<i64>,
    loop_repeats: usize,
    /// The sweep's limits (empty: no sweep) and the timed calls per limit.
    payload_limits: Vec<i64>,
    payload_calls: usize,
}

/// One timed repeat of the loops, milliseconds.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LoopRepeat {
    sequential_ms: f64,
    concurrent_ms: f64,
    batch_ms: f64,
}

/// The payload sweep at one limit: the result's UTF-8 bytes and the timed calls, µs.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PayloadPoint {
    limit: i64,
    result_bytes: usize,
    samples_us: Vec<f64>,
}

/// A runtime or SDK: name and version.
#[derive(Serialize)]
struct NameVersion {
    name: String,
    version: String,
}

/// A session's start-up, milliseconds from before the spawn.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SetupMs {
    ready_ms: f64,
    open_ms: f64,
    listed_ms: f64,
    first_call_ms: f64,
}

/// The one JSON object of harness protocol 1 (runner/percall/harness.ts).
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Output {
    wirecost_harness: u32,
    samples_us: Vec<f64>,
    result_bytes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    setup: Option<SetupMs>,
    runtime: NameVersion,
    #[serde(skip_serializing_if = "Option::is_none")]
    sdk: Option<NameVersion>,
    #[serde(skip_serializing_if = "Option::is_none")]
    protocol_version: Option<String>,
    cpu_per_call_us: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    loops: Option<Vec<LoopRepeat>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    payload: Option<Vec<PayloadPoint>>,
}

/// Another server for `--harness sdk` to drive (harness protocol, "Another server"): its stdio
/// command, or the URL of the HTTP server wirecost started; `None`: this binary as the server.
#[derive(Debug, Clone, PartialEq)]
enum GivenServer {
    Command(Vec<String>),
    Url(String),
}

/// Reads `--harness PATH` or `--harness=PATH` ("direct" or "sdk"), then for sdk optionally
/// `-- SERVER ARGV...` (stdio) or `--url http://127.0.0.1:PORT/PATH` (http).
fn parse_path(argv: &[String]) -> Result<(&'static str, Option<GivenServer>), Failure> {
    let (path, rest) = match argv {
        [flag, path, rest @ ..] if flag == "--harness" => (path.as_str(), rest),
        [one, rest @ ..] if one.starts_with("--harness=") => (&one["--harness=".len()..], rest),
        _ => return Err(Failure::Usage(format!("expected --harness PATH, got {:?}", argv.join(" ")))),
    };
    let path = match path {
        "direct" => "direct",
        "sdk" => "sdk",
        other => return Err(Failure::Usage(format!("unknown harness path {other:?}: use direct or sdk"))),
    };
    let url_prefix = format!("http://{}:", crate::http::HTTP_HOST);
    let server = match rest {
        [] => None,
        [dashes, command @ ..] if dashes == "--" && !command.is_empty() => Some(GivenServer::Command(command.to_vec())),
        [flag, url] if flag == "--url" && url.starts_with(&url_prefix) => Some(GivenServer::Url(url.clone())),
        _ => {
            return Err(Failure::Usage(format!(
                "unexpected {:?}: another server is `-- SERVER ARGV...` (stdio) or `--url {url_prefix}PORT/PATH` (http)",
                rest.join(" ")
            )));
        }
    };
    if path != "sdk" && server.is_some() {
        return Err(Failure::Usage(format!("--harness {path} takes no server: another server is for --harness sdk")));
    }
    Ok((path, server))
}

/// A usage error when the server given does not fit the transport: a stdio client takes the
/// server's command, an http client its URL.
fn check_given_server(server: &Option<GivenServer>, transport: &str) -> Result<(), Failure> {
    match server {
        Some(GivenServer::Command(_)) if transport != "stdio" => {}
        Some(GivenServer::Url(_)) if transport != "http" => {}
        _ => return Ok(()),
    }
    Err(Failure::Usage(format!(
        "WIRECOST_TRANSPORT={transport} does not fit the server given: a stdio client takes `-- SERVER ARGV...`, an http client `--url`"
    )))
}

/// The whole number in `env(name)`, at least `low`.
fn whole(env: &impl Fn(&str) -> Option<String>, name: &str, low: usize) -> Result<usize, Failure> {
    let raw = env(name).unwrap_or_default();
    match raw.parse::<usize>() {
        Ok(n) if !raw.is_empty() && raw.bytes().all(|b| b.is_ascii_digit()) && n >= low => Ok(n),
        _ => Err(Failure::Usage(format!(
            "{name}={raw:?} is not a whole number >= {low}: wirecost sets it from timing: in the matrix"
        ))),
    }
}

/// The comma-separated whole numbers (each >= 1) in `env(name)`; empty when unset.
fn whole_list(env: &impl Fn(&str) -> Option<String>, name: &str) -> Result<Vec<i64>, Failure> {
    let raw = env(name).unwrap_or_default();
    if raw.is_empty() {
        return Ok(vec![]);
    }
    raw.split(',')
        .map(|x| match x.parse::<i64>() {
            Ok(n) if x.bytes().all(|b| b.is_ascii_digit()) && n >= 1 => Ok(n),
            _ => Err(Failure::Usage(format!(
                "{name}={raw:?} is not a comma-separated list of whole numbers >= 1: wirecost sets it from timing: in the matrix"
            ))),
        })
        .collect()
}

/// Reads and checks the variables wirecost sets for `path`.
fn read_settings(path: &str, env: impl Fn(&str) -> Option<String>) -> Result<Settings, Failure> {
    let allowed: &[&str] = if path == "direct" { &["in-process"] } else { &["stdio", "http"] };
    let transport = env("WIRECOST_TRANSPORT").filter(|t| !t.is_empty()).unwrap_or_else(|| allowed[0].into());
    if !allowed.contains(&transport.as_str()) {
        return Err(Failure::Usage(format!(
            "WIRECOST_TRANSPORT={transport} but --harness {path} measures {}: fix the target's harness transport or its --harness",
            allowed.join(" or ")
        )));
    }
    for name in ["WIRECOST_TICKETS_DB", "WIRECOST_QUERY"] {
        if env(name).unwrap_or_default().is_empty() {
            return Err(Failure::Usage(format!("{name} is not set: run this harness through wirecost run (it sets it)")));
        }
    }
    let revision = env("WIRECOST_REVISION").unwrap_or_default();
    if path == "sdk" && revision != "2025-11-25" && revision != "2026-07-28" {
        return Err(Failure::Usage(format!(
            "WIRECOST_REVISION={revision:?}: this harness opens 2025-11-25 (initialize) or 2026-07-28 (server/discover) sessions; fix the target's revisions"
        )));
    }
    let loop_ids = whole_list(&env, "WIRECOST_LOOP_IDS")?;
    let payload_limits = whole_list(&env, "WIRECOST_PAYLOAD_LIMITS")?;
    Ok(Settings {
        db: env("WIRECOST_TICKETS_DB").unwrap_or_default(),
        query: env("WIRECOST_QUERY").unwrap_or_default(),
        limit: whole(&env, "WIRECOST_LIMIT", 1)? as i64,
        calls: whole(&env, "WIRECOST_CALLS", 1)?,
        warmup_calls: whole(&env, "WIRECOST_WARMUP_CALLS", 0)?,
        loop_repeats: if loop_ids.is_empty() { 0 } else { whole(&env, "WIRECOST_LOOP_REPEATS", 1)? },
        payload_calls: if payload_limits.is_empty() { 0 } else { whole(&env, "WIRECOST_PAYLOAD_CALLS", 1)? },
        loop_ids,
        payload_limits,
        revision,
        transport,
    })
}

/// Microseconds of `d`, fractional.
fn us(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e3
}

/// Milliseconds of `d`, fractional.
fn ms(d: Duration) -> f64 {
    d.as_nanos() as f64 / 1e6
}

/// This process's CPU time so far, user + system (clock_gettime(CLOCK_PROCESS_CPUTIME_ID)); a
/// server it started is another process and not in it.
fn process_cpu() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// This program's runtime: Rust and the compiler version it was built with (build.rs).
fn rust_runtime() -> NameVersion {
    NameVersion { name: "rust".into(), version: env!("WIRECOST_RUSTC_VERSION").into() }
}

/// The optional profile window of WIRECOST_PROFILE_WINDOW (README "Per-call harnesses in other
/// languages"): ready.json with the pids, wait for go; end.json with the window's wall time, wait
/// for release; reference.json with the wall time of the same calls unprofiled just before the
/// window and just after it (check (b)'s like-with-like reference). Without the variable (None)
/// it does nothing.
struct ProfileWindow(Option<PathBuf>);

/// Writes `v` as JSON to `path` atomically (path.tmp renamed).
fn write_json(path: &Path, v: &serde_json::Value) -> Result<(), Failure> {
    let tmp = path.with_extension("json.tmp");
    std::fs::write(&tmp, v.to_string()).map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(fail)
}

/// Polls every millisecond until `path` exists. Errors after WINDOW_WAIT.
async fn wait_file(path: &Path) -> Result<(), Failure> {
    let deadline = Instant::now() + WINDOW_WAIT;
    while !path.exists() {
        if Instant::now() > deadline {
            return Err(fail(format!("profile window: {} did not appear within {} s", path.display(), WINDOW_WAIT.as_secs())));
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    Ok(())
}

impl ProfileWindow {
    /// The window of this process's WIRECOST_PROFILE_WINDOW.
    fn from_env() -> Self {
        Self(std::env::var_os("WIRECOST_PROFILE_WINDOW").filter(|v| !v.is_empty()).map(PathBuf::from))
    }

    /// Reports this process's pid (and the server's) and waits for wirecost's go.
    async fn open(&self, server_pid: Option<u32>) -> Result<(), Failure> {
        let Some(dir) = &self.0 else { return Ok(()) };
        let mut ready = json!({"wirecostWindow": 1, "clientPid": std::process::id()});
        if let Some(pid) = server_pid {
            ready["serverPid"] = json!(pid);
        }
        write_json(&dir.join("ready.json"), &ready)?;
        wait_file(&dir.join("go")).await
    }

    /// Reports the window's wall time and waits for wirecost's release.
    async fn close(&self, window: Duration, calls: usize) -> Result<(), Failure> {
        let Some(dir) = &self.0 else { return Ok(()) };
        write_json(&dir.join("end.json"), &json!({"windowNs": window.as_nanos() as u64, "calls": calls}))?;
        wait_file(&dir.join("release")).await
    }

    /// Whether the window is asked for (the reference windows run only then).
    fn active(&self) -> bool {
        self.0.is_some()
    }

    /// Reports the wall time of the unprofiled windows before and after the profiled one.
    fn reference(&self, before: Duration, after: Duration, calls: usize) -> Result<(), Failure> {
        let Some(dir) = &self.0 else { return Ok(()) };
        write_json(&dir.join("reference.json"), &json!({"beforeNs": before.as_nanos() as u64, "afterNs": after.as_nanos() as u64, "calls": calls}))
    }
}

/// The wall time of `calls` timed calls, with no samples kept (a reference window).
async fn plain_window(c: &Caller, s: &Settings) -> Result<Duration, Failure> {
    let w0 = Instant::now();
    for _ in 0..s.calls {
        c.timed(&s.query, s.limit).await?;
    }
    Ok(w0.elapsed())
}

/// One way of making the workload's calls: in this process, or through an rmcp client session.
#[derive(Clone)]
enum Caller {
    Direct(Arc<TicketStore>),
    Session(Peer<RoleClient>),
}

impl Caller {
    /// search_tickets, answering the result text's UTF-8 bytes (the discarded calls).
    async fn search(&self, query: &str, limit: i64) -> Result<usize, Failure> {
        match self {
            Caller::Direct(store) => Ok(tickets_text(&store.search_tickets(query, limit).map_err(fail)?).len()),
            Caller::Session(peer) => Ok(self.call(peer, "search_tickets", json!({"query": query, "limit": limit})).await?.len()),
        }
    }

    /// The call that is timed: in-process the query without serialising the rows (as the Python
    /// harness's and wirecost's own direct paths); through a session, search itself.
    async fn timed(&self, query: &str, limit: i64) -> Result<(), Failure> {
        match self {
            Caller::Direct(store) => store.search_tickets(query, limit).map(|_| ()).map_err(fail),
            Caller::Session(_) => self.search(query, limit).await.map(|_| ()),
        }
    }

    /// get_tickets of `ids`.
    async fn get(&self, ids: Vec<i64>) -> Result<(), Failure> {
        match self {
            Caller::Direct(store) => store.get_tickets(&ids).map(|_| ()).map_err(fail),
            Caller::Session(peer) => self.call(peer, "get_tickets", json!({"ids": ids})).await.map(|_| ()),
        }
    }

    /// One tools/call through the session: the first content item's text. Errors: the SDK's
    /// error, a tool error, or no text.
    async fn call(&self, peer: &Peer<RoleClient>, name: &'static str, arguments: serde_json::Value) -> Result<String, Failure> {
        let arguments = arguments.as_object().cloned().unwrap_or_default();
        let r = peer.call_tool(CallToolRequestParams::new(name).with_arguments(arguments)).await.map_err(|e| fail(format!("{name}: {e}")))?;
        let text = match r.content.first().and_then(|c| c.as_text()) {
            Some(t) => t.text.clone(),
            _ => return Err(fail(format!("{name} answered no text content"))),
        };
        if r.is_error == Some(true) {
            return Err(fail(format!("{name} answered a tool error: {:.200}", text)));
        }
        Ok(text)
    }
}

/// One discarded call (calling `first_done` when answered), `warmup_calls` more, then
/// `s.calls` timed calls inside the profile window: the samples (µs), the first call's result
/// bytes and this process's CPU per call (µs).
async fn time_calls(c: &Caller, s: &Settings, server_pid: Option<u32>, first_done: impl FnOnce()) -> Result<(Vec<f64>, usize, f64), Failure> {
    let bytes = c.search(&s.query, s.limit).await?;
    first_done();
    for _ in 0..s.warmup_calls {
        c.timed(&s.query, s.limit).await?;
    }
    let window = ProfileWindow::from_env();
    let before = if window.active() { plain_window(c, s).await? } else { Duration::ZERO };
    window.open(server_pid).await?;
    let mut samples = Vec::with_capacity(s.calls);
    let (cpu0, w0) = (process_cpu(), Instant::now());
    for _ in 0..s.calls {
        let t = Instant::now();
        c.timed(&s.query, s.limit).await?;
        samples.push(us(t.elapsed()));
    }
    let (wall, cpu) = (w0.elapsed(), process_cpu() - cpu0);
    window.close(wall, s.calls).await?;
    if window.active() {
        let after = plain_window(c, s).await?;
        window.reference(before, after, s.calls)?;
    }
    Ok((samples, bytes, us(cpu) / s.calls as f64))
}

/// One repeat of the loops: get_tickets per id one at a time, all at once (through a session:
/// one task each on the one session; in-process one after another, as there is nothing to
/// overlap, as the Python harness), and once with every id.
async fn loop_once(c: &Caller, ids: &[i64]) -> Result<LoopRepeat, Failure> {
    let t = Instant::now();
    for id in ids {
        c.get(vec![*id]).await?;
    }
    let sequential = t.elapsed();
    let t = Instant::now();
    match c {
        Caller::Direct(_) => {
            for id in ids {
                c.get(vec![*id]).await?;
            }
        }
        Caller::Session(_) => {
            let mut tasks = tokio::task::JoinSet::new();
            for id in ids {
                let (c, id) = (c.clone(), *id);
                tasks.spawn(async move { c.get(vec![id]).await });
            }
            while let Some(r) = tasks.join_next().await {
                r.map_err(fail)??;
            }
        }
    }
    let concurrent = t.elapsed();
    let t = Instant::now();
    c.get(ids.to_vec()).await?;
    Ok(LoopRepeat { sequential_ms: ms(sequential), concurrent_ms: ms(concurrent), batch_ms: ms(t.elapsed()) })
}

/// The loops and the payload sweep as asked (None for what was not asked).
async fn loops_and_payload(c: &Caller, s: &Settings) -> Result<(Option<Vec<LoopRepeat>>, Option<Vec<PayloadPoint>>), Failure> {
    let mut loops = None;
    if !s.loop_ids.is_empty() {
        let mut repeats = vec![];
        for r in 0..=s.loop_repeats {
            let l = loop_once(c, &s.loop_ids).await?;
            if r > 0 {
                repeats.push(l); // the first repeat is discarded
            }
        }
        loops = Some(repeats);
    }
    let mut payload = None;
    if !s.payload_limits.is_empty() {
        let mut points = vec![];
        for &limit in &s.payload_limits {
            let result_bytes = c.search(&s.query, limit).await?; // discarded
            let mut samples_us = Vec::with_capacity(s.payload_calls);
            for _ in 0..s.payload_calls {
                let t = Instant::now();
                c.timed(&s.query, limit).await?;
                samples_us.push(us(t.elapsed()));
            }
            points.push(PayloadPoint { limit, result_bytes, samples_us });
        }
        payload = Some(points);
    }
    Ok((loops, payload))
}

/// Times the store's search_tickets in this process.
async fn measure_direct(s: &Settings) -> Result<Output, Failure> {
    let c = Caller::Direct(Arc::new(TicketStore::new(s.db.clone())));
    let (samples_us, result_bytes, cpu_per_call_us) = time_calls(&c, s, None, || {}).await?;
    let (loops, payload) = loops_and_payload(&c, s).await?;
    Ok(Output {
        wirecost_harness: PROTOCOL,
        samples_us,
        result_bytes,
        setup: None,
        runtime: rust_runtime(),
        sdk: None,
        protocol_version: None,
        cpu_per_call_us,
        loops,
        payload,
    })
}

/// This binary as the server on `transport`, with the workload's environment.
fn server_command(transport: &str, s: &Settings) -> Result<tokio::process::Command, Failure> {
    let exe = std::env::current_exe().map_err(fail)?;
    let mut cmd = tokio::process::Command::new(exe);
    cmd.args(if transport == "http" { &["--transport", "http", "--port", "0"][..] } else { &["--transport", "stdio"][..] });
    cmd.env("WIRECOST_WORKLOAD", "tickets").env("WIRECOST_TICKETS_DB", &s.db);
    // The child's profile window writes WIRECOST_PROFILE_SERVER_OUT, never this process's
    // WIRECOST_PROFILE_OUT (unset: no window).
    match std::env::var_os("WIRECOST_PROFILE_SERVER_OUT").filter(|v| !v.is_empty()) {
        Some(out) => cmd.env("WIRECOST_PROFILE_OUT", out),
        None => cmd.env_remove("WIRECOST_PROFILE_OUT"),
    };
    cmd.env_remove("WIRECOST_PROFILE_SERVER_OUT");
    Ok(cmd)
}

/// The HTTP server child: started, its endpoint once it says it listens (its other stderr lines
/// passed on to ours). Errors: it ends or is silent for SERVER_START.
async fn start_http_server(mut cmd: tokio::process::Command) -> Result<(tokio::process::Child, String), Failure> {
    let mut child = cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::piped()).kill_on_drop(true).spawn().map_err(fail)?;
    let mut lines = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
    let prefix = format!("listening on {}:", crate::http::HTTP_HOST);
    let port = tokio::time::timeout(SERVER_START, async {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("{line}");
            if let Some(port) = line.strip_prefix(&prefix) {
                return Some(port.to_string());
            }
        }
        None
    })
    .await;
    let port = match port {
        Ok(Some(port)) => port,
        Ok(None) => return Err(fail("the server (--transport http) ended without saying it listens")),
        Err(_) => return Err(fail(format!("the server (--transport http) did not say it listens within {} s", SERVER_START.as_secs()))),
    };
    tokio::spawn(async move {
        while let Ok(Some(line)) = lines.next_line().await {
            eprintln!("{line}");
        }
    });
    Ok((child, format!("http://{}:{port}/mcp", crate::http::HTTP_HOST)))
}

/// Ends an HTTP server child: SIGTERM, then SIGKILL after 5 s.
async fn stop_server(child: &mut tokio::process::Child) {
    if let Some(pid) = child.id() {
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(pid as libc::pid_t, libc::SIGTERM) };
    }
    if tokio::time::timeout(Duration::from_secs(5), child.wait()).await.is_err() {
        let _ = child.kill().await;
    }
}

/// Times `call_tool("search_tickets")` through rmcp's client of `s.transport` against this binary
/// as the server. Setup phases are milliseconds from before the spawn: ready (stdio: the child
/// started and its pipes are up; HTTP: the server said it listens), open (initialize answered and
/// notifications/initialized sent, or server/discover answered on 2026-07-28), listed
/// (tools/list answered), first call answered.
async fn measure_sdk(s: &Settings, given: Option<GivenServer>) -> Result<Output, Failure> {
    let version = if s.revision == "2026-07-28" { ProtocolVersion::V_2026_07_28 } else { ProtocolVersion::V_2025_11_25 };
    let lifecycle = if s.revision == "2026-07-28" {
        ClientLifecycleMode::Discover { preferred_versions: vec![version.clone()] }
    } else {
        ClientLifecycleMode::Initialize
    };
    let config = ClientConfig::new(ClientCapabilities::default(), Implementation::new(CLIENT_NAME, "1.0.0")).with_protocol_version(version);
    let mut cmd = server_command(&s.transport, s)?;
    if let Some(GivenServer::Command(argv)) = &given {
        // Another server's stdio command, started in this process's working folder; wirecost gave
        // its environment in the command (`env VAR=VALUE… SERVER ARGV`).
        cmd = tokio::process::Command::new(&argv[0]);
        cmd.args(&argv[1..]);
    }
    let t0 = Instant::now();
    let mut http_child = None;
    let (running, ready, server_pid): (RunningService<RoleClient, ClientConfig>, Duration, Option<u32>) = if let Some(GivenServer::Url(url)) = &given {
        // wirecost started the server: nothing to start here, nothing of its start-up to time.
        let running = config.serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url.clone()), lifecycle).await;
        (running.map_err(|e| fail(format!("opening the session: {e}")))?, Duration::ZERO, None)
    } else if s.transport == "http" {
        let (child, url) = start_http_server(cmd).await?;
        let ready = t0.elapsed();
        let pid = child.id();
        http_child = Some(child);
        let running = config.serve_with_lifecycle(StreamableHttpClientTransport::from_uri(url), lifecycle).await;
        (running.map_err(|e| fail(format!("opening the session: {e}")))?, ready, pid)
    } else {
        let child = TokioChildProcess::new(cmd).map_err(fail)?;
        let ready = t0.elapsed();
        let pid = child.id();
        let running = config.serve_with_lifecycle(child, lifecycle).await;
        (running.map_err(|e| fail(format!("opening the session: {e}")))?, ready, pid)
    };
    let started_here = !matches!(given, Some(GivenServer::Url(_)));
    let result = measure_session(s, &running, t0, started_here.then_some(ready), server_pid).await;
    let _ = running.cancel().await;
    if let Some(child) = http_child.as_mut() {
        stop_server(child).await;
    }
    result
}

/// The timed part of [`measure_sdk`] on an open session.
async fn measure_session(
    s: &Settings,
    running: &RunningService<RoleClient, ClientConfig>,
    t0: Instant,
    ready: Option<Duration>,
    server_pid: Option<u32>,
) -> Result<Output, Failure> {
    let opened = t0.elapsed();
    let negotiated = running.peer_info().map(|i| i.protocol_version.to_string()).unwrap_or_default();
    if negotiated != s.revision {
        return Err(fail(format!("the session negotiated {negotiated:?}, not {}", s.revision)));
    }
    let tools = running.peer().list_tools(None).await.map_err(|e| fail(format!("tools/list: {e}")))?;
    let listed = t0.elapsed();
    if !tools.tools.iter().any(|t| t.name == "search_tickets") {
        return Err(fail("the server lists no search_tickets tool: is WIRECOST_WORKLOAD=tickets reaching it?"));
    }
    let c = Caller::Session(running.peer().clone());
    let mut first_call = Duration::ZERO;
    let (samples_us, result_bytes, cpu_per_call_us) = time_calls(&c, s, server_pid, || first_call = t0.elapsed()).await?;
    let (loops, payload) = loops_and_payload(&c, s).await?;
    Ok(Output {
        wirecost_harness: PROTOCOL,
        samples_us,
        result_bytes,
        // No setup against a server wirecost started (`ready` None): its start-up is not this process's to time.
        setup: ready.map(|ready| SetupMs { ready_ms: ms(ready), open_ms: ms(opened), listed_ms: ms(listed), first_call_ms: ms(first_call) }),
        runtime: rust_runtime(),
        sdk: Some(NameVersion { name: "rmcp".into(), version: env!("WIRECOST_RMCP_VERSION").into() }),
        protocol_version: Some(negotiated),
        cpu_per_call_us,
        loops,
        payload,
    })
}

/// Measures the path `argv` (after the program name) names, prints the JSON on stdout and
/// returns the exit status.
pub fn run(argv: &[String]) -> ExitCode {
    let settings = parse_path(argv).and_then(|(path, server)| {
        let s = read_settings(path, |k| std::env::var(k).ok())?;
        check_given_server(&server, &s.transport)?;
        Ok((path, server, s))
    });
    // This process's own profile window (WIRECOST_PROFILE_OUT; its server child gets
    // WIRECOST_PROFILE_SERVER_OUT as its own, server_command): nothing is installed without it.
    let settings = settings.and_then(|v| profile_window::install("mcp-rust-harness").map(|()| v).map_err(Failure::Usage));
    let result = settings.and_then(|(path, server, s)| {
        let rt = tokio::runtime::Builder::new_multi_thread().enable_all().build().map_err(fail)?;
        rt.block_on(async { if path == "direct" { measure_direct(&s).await } else { measure_sdk(&s, server).await } })
    });
    match result {
        Ok(out) => match serde_json::to_string(&out) {
            Ok(line) => {
                println!("{line}");
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("mcp-rust harness: {e}");
                ExitCode::from(1)
            }
        },
        Err(Failure::Usage(e)) => {
            eprintln!("mcp-rust harness: {e}\n{HARNESS_USAGE}");
            ExitCode::from(2)
        }
        Err(Failure::Measure(e)) => {
            eprintln!("mcp-rust harness: {}", e.split_whitespace().collect::<Vec<_>>().join(" "));
            ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<String> {
        move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    const GOOD: &[(&str, &str)] = &[
        ("WIRECOST_TICKETS_DB", "/tmp/t.sqlite"),
        ("WIRECOST_QUERY", "refund"),
        ("WIRECOST_LIMIT", "10"),
        ("WIRECOST_CALLS", "3"),
        ("WIRECOST_WARMUP_CALLS", "0"),
        ("WIRECOST_TRANSPORT", "http"),
        ("WIRECOST_REVISION", "2026-07-28"),
        ("WIRECOST_LOOP_IDS", "1,2"),
        ("WIRECOST_LOOP_REPEATS", "2"),
        ("WIRECOST_PAYLOAD_LIMITS", "2,40"),
        ("WIRECOST_PAYLOAD_CALLS", "5"),
    ];

    #[test]
    fn reads_the_path_and_the_variables() {
        let args = |s: &[&str]| s.iter().map(|a| a.to_string()).collect::<Vec<_>>();
        assert!(matches!(parse_path(&args(&["--harness", "direct"])), Ok(("direct", None))));
        assert!(matches!(parse_path(&args(&["--harness=sdk"])), Ok(("sdk", None))));
        assert!(matches!(parse_path(&args(&["--harness", "nope"])), Err(Failure::Usage(_))));
        assert!(matches!(parse_path(&args(&["--harness"])), Err(Failure::Usage(_))));
        let command = parse_path(&args(&["--harness", "sdk", "--", "env", "A=1", "python3", "server.py"])).ok().map(|(_, s)| s);
        assert_eq!(command, Some(Some(GivenServer::Command(args(&["env", "A=1", "python3", "server.py"])))));
        let url = parse_path(&args(&["--harness", "sdk", "--url", "http://127.0.0.1:4000/mcp"])).ok().map(|(_, s)| s);
        assert_eq!(url, Some(Some(GivenServer::Url("http://127.0.0.1:4000/mcp".into()))));
        for bad in [&["--harness", "direct", "--", "server"][..], &["--harness", "sdk", "--url", "http://example.com/mcp"], &["--harness", "sdk", "--"], &["--harness", "sdk", "extra"]] {
            assert!(matches!(parse_path(&args(bad)), Err(Failure::Usage(_))), "{bad:?} accepted");
        }
        assert!(matches!(check_given_server(&Some(GivenServer::Url("http://127.0.0.1:1/mcp".into())), "stdio"), Err(Failure::Usage(_))));
        assert!(check_given_server(&Some(GivenServer::Command(args(&["s"]))), "stdio").is_ok());
        let s = read_settings("sdk", env(GOOD)).ok().expect("good settings");
        assert_eq!((s.calls, s.loop_ids.clone(), s.loop_repeats, s.payload_limits.clone(), s.payload_calls), (3, vec![1, 2], 2, vec![2, 40], 5));
        for (name, bad) in [("WIRECOST_CALLS", "x"), ("WIRECOST_PAYLOAD_LIMITS", "2,0"), ("WIRECOST_TRANSPORT", "in-process"), ("WIRECOST_REVISION", "2025-06-18")] {
            let lookup = move |k: &str| if k == name { Some(bad.to_string()) } else { env(GOOD)(k) };
            match read_settings("sdk", lookup) {
                Err(Failure::Usage(m)) => assert!(m.contains(name), "{m}"),
                _ => panic!("{name}={bad} accepted"),
            }
        }
    }
}
