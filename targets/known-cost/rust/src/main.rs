//! known-cost-rust: wirecost's test-only MCP server with known costs (README "Known-cost targets").
//!
//! ```text
//! known-cost-rust --transport stdio            # newline-delimited JSON-RPC 2.0 on stdin/stdout
//! known-cost-rust --transport http --port N    # POST /mcp on 127.0.0.1:N (0: the OS picks)
//! ```
//!
//! Every `tools/call` runs `parse_and_validate`, `do_work` and `build_result`, each spinning on its
//! thread's CPU clock for a fixed time, so a profile of it has a known answer. Knobs:
//! `WIRECOST_KNOWN_COSTS=parse_and_validate=1500,do_work=1000,build_result=500` (µs, the defaults;
//! any subset) and the profile window's `WIRECOST_PROFILE_OUT` and `WIRECOST_PROFILE_HZ`
//! (targets/common/profile-window). Over HTTP it prints `listening on 127.0.0.1:PORT` on stderr once
//! bound. Exit status: 0 at end of stdin or on SIGTERM/SIGINT (HTTP), 2 on a bad argument or knob
//! (one line), 1 on a start-up failure.

mod http;
mod mcp;

use std::io::{BufRead, Write};
use std::process::ExitCode;

use crate::mcp::{Costs, Server};

/// The usage line printed after the line that names a bad argument.
const USAGE: &str = "usage: known-cost-rust --transport stdio|http [--port N]";

/// The transport the command line asked for.
enum Transport {
    Stdio,
    Http { port: u16 },
}

/// Parses `--transport stdio|http [--port N]`; the port is required for http.
fn parse_args(argv: &[String]) -> Result<Transport, String> {
    let (mut transport, mut port) = (None, None);
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let value = it.next().ok_or_else(|| format!("{arg} needs a value"))?;
        match arg.as_str() {
            "--transport" if value == "stdio" || value == "http" => transport = Some(value.clone()),
            "--transport" => return Err(format!("--transport {value:?} is not stdio or http")),
            "--port" => port = Some(value.parse::<u16>().map_err(|_| format!("--port {value:?} is not a port number (0-65535)"))?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    match (transport.as_deref(), port) {
        (Some("stdio"), _) => Ok(Transport::Stdio),
        (Some(_), Some(port)) => Ok(Transport::Http { port }),
        (Some(_), None) => Err("--port is required with --transport http".into()),
        (None, _) => Err("--transport is required".into()),
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let parsed = parse_args(&argv).and_then(|t| {
        let costs = Costs::parse(&std::env::var("WIRECOST_KNOWN_COSTS").unwrap_or_default())?;
        profile_window::install("known-cost-rust")?;
        Ok((t, costs))
    });
    let (transport, costs) = match parsed {
        Ok(v) => v,
        Err(e) => {
            eprintln!("known-cost-rust: {e}; {USAGE}");
            return ExitCode::from(2);
        }
    };
    let server = Server { costs };
    match transport {
        Transport::Stdio => match serve_stdio(&server) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("known-cost-rust: stdio: {e}");
                ExitCode::from(1)
            }
        },
        Transport::Http { port } => http::serve(server, port),
    }
}

/// Answers one JSON-RPC message per line of stdin, one answer per line of stdout, until stdin ends.
fn serve_stdio(server: &Server) -> std::io::Result<()> {
    let stdin = std::io::stdin().lock();
    let mut stdout = std::io::stdout().lock();
    for line in stdin.split(b'\n') {
        let line = line?;
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Some(mut answer) = server.handle(&line) {
            answer.push(b'\n');
            stdout.write_all(&answer)?;
            stdout.flush()?;
        }
    }
    Ok(())
}
