//! mcp-rust: wirecost's MCP target on rmcp, the Rust MCP SDK.
//!
//! ```text
//! mcp-rust --transport stdio
//! mcp-rust --transport http --port N   # N=0: the OS picks; 127.0.0.1 only
//! mcp-rust --harness direct|sdk        # the per-call harness (harness.rs)
//! ```
//!
//! stdio is the SDK's `serve_server` on its stdio transport (2025 era after `initialize`, or
//! 2026-07-28 when the first request carries the `_meta` envelope); HTTP is the SDK's
//! `StreamableHttpService` (http.rs). Knobs: WIRECOST_CATALOG, WIRECOST_STATE (config.rs,
//! tools.rs), WIRECOST_WORKLOAD=tickets with WIRECOST_TICKETS_DB (tickets.rs), and the profile window's WIRECOST_PROFILE_OUT and WIRECOST_PROFILE_HZ
//! (targets/common/profile-window). Exit status: 0 on SIGTERM/SIGINT or end of stdin, 2 on a bad
//! argument or knob, 1 on a start-up failure.

mod config;
mod harness;
mod http;
mod tickets;
mod tools;

use std::process::ExitCode;

use rmcp::{ServiceExt, transport::stdio};
use tokio::signal::unix::{SignalKind, signal};

use crate::config::{Config, Transport, USAGE, UsageError, config_from, parse_args};

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.first().is_some_and(|a| a.starts_with("--harness")) {
        return harness::run(&argv); // the per-call harness (harness.rs)
    }
    let parsed = parse_args(&argv).and_then(|t| Ok((t, config_from(|k| std::env::var(k).ok())?)));
    // The profile window (WIRECOST_PROFILE_OUT): nothing is installed without it.
    let parsed = parsed.and_then(|v| profile_window::install("mcp-rust").map(|()| v).map_err(UsageError));
    let (transport, cfg) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("mcp-rust: {e}\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("mcp-rust: cannot start the async runtime: {e}");
            return ExitCode::from(1);
        }
    };
    let code = runtime.block_on(run(transport, cfg));
    // Leave at once: a pending stdin read or an open SSE answer must not hold the exit.
    std::process::exit(code);
}

/// Installs the SIGTERM and SIGINT handlers now (before anything is served, so that a signal right
/// after the listening line or the first answer exits 0) and resolves when either arrives.
fn signalled() -> impl Future<Output = ()> {
    let handlers = (signal(SignalKind::terminate()), signal(SignalKind::interrupt()));
    async move {
        let (Ok(mut term), Ok(mut int)) = handlers else {
            return std::future::pending::<()>().await;
        };
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    }
}

/// Serves until a signal (or end of stdin) and returns the exit status.
async fn run(transport: Transport, cfg: Config) -> i32 {
    let signal = signalled();
    let served = async {
        match transport {
            Transport::Stdio => {
                // Err: stdin ended (or failed) before the first request; either way the session is over.
                if let Ok(running) = tools::Wirecost::new(&cfg).serve(stdio()).await {
                    let _ = running.waiting().await;
                }
                0
            }
            Transport::Http { port } => {
                let listener = match http::bind(port).await {
                    Ok(l) => l,
                    Err(e) => {
                        eprintln!("mcp-rust: cannot listen on {}:{port}: {e}", http::HTTP_HOST);
                        return 1;
                    }
                };
                match listener.local_addr() {
                    Ok(addr) => eprintln!("listening on {}:{}", http::HTTP_HOST, addr.port()),
                    Err(e) => {
                        eprintln!("mcp-rust: cannot read the bound address: {e}");
                        return 1;
                    }
                }
                let e = http::serve(listener, &cfg).await.err();
                eprintln!("mcp-rust: HTTP server stopped: {e:?}");
                1
            }
        }
    };
    tokio::select! {
        code = served => code,
        _ = signal => 0,
    }
}
