//! The command line and the environment knobs of mcp-rust: the same CLI as every wirecost target
//! (targets/common/cli.ts) and the same knobs as targets/mcp-ts-v2 (factory.ts).

use std::fmt;

/// Printed after every usage error.
pub const USAGE: &str = "usage: mcp-rust --transport stdio | --transport http [--port N]";

/// A bad argument or knob: main prints `mcp-rust: <message>` and [`USAGE`], exit status 2.
#[derive(Debug, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What the command line asked for.
#[derive(Debug, PartialEq, Eq)]
pub enum Transport {
    /// One MCP connection on stdin/stdout.
    Stdio,
    /// Streamable HTTP on 127.0.0.1:port (0: the OS picks).
    Http { port: u16 },
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

/// Reads `--transport stdio | --transport http [--port N]` (also `--flag=value`). Errors: an
/// unknown option or positional argument, a missing or unknown transport, `--port` with stdio, or a
/// port outside 0–65535.
pub fn parse_args(argv: &[String]) -> Result<Transport, UsageError> {
    let mut transport: Option<String> = None;
    let mut port: Option<String> = None;
    let mut it = argv.iter();
    while let Some(arg) = it.next() {
        let (name, inline) = match arg.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let slot = match name {
            "--transport" => &mut transport,
            "--port" => &mut port,
            _ if name.starts_with('-') => return Err(UsageError(format!("unknown option {name}"))),
            _ => return Err(UsageError(format!("unexpected argument {arg:?}"))),
        };
        let value = match inline {
            Some(v) => v,
            None => it
                .next()
                .cloned()
                .ok_or_else(|| UsageError(format!("{name} needs a value")))?,
        };
        *slot = Some(value);
    }
    match transport.as_deref() {
        Some("stdio") if port.is_some() => Err(UsageError("--port applies to --transport http only".into())),
        Some("stdio") => Ok(Transport::Stdio),
        Some("http") => {
            let raw = port.unwrap_or_else(|| "0".into());
            match raw.parse::<u16>() {
                Ok(port) if is_digits(&raw) => Ok(Transport::Http { port }),
                _ => Err(UsageError(format!("--port {raw} is not a port: give a number from 0 to 65535"))),
            }
        }
        None => Err(UsageError("--transport is required".into())),
        Some(other) => Err(UsageError(format!("unknown transport {other:?}: use stdio or http"))),
    }
}

/// What the knobs ask the target to serve.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// Number of catalog tools listed (WIRECOST_CATALOG, default 3, at least 1).
    pub catalog: usize,
    /// Size of confirm's requestState (WIRECOST_STATE, or WIRECOST_STATE_BYTES when unset; default
    /// 0 = none).
    pub state_bytes: usize,
    /// The ticket database of the per-call workload (WIRECOST_WORKLOAD=tickets; src/tickets.rs),
    /// None when the workload is off: WIRECOST_TICKETS_DB, else
    /// `$WIRECOST_TICKETS_DIR/tickets-v1-5000-20251125.sqlite` with tickets.ts's default folder
    /// `$TMPDIR/wirecost` (`/tmp/wirecost`).
    pub tickets_db: Option<String>,
}

/// Reads a whole-number knob from `value`: `fallback` when unset or empty, a [`UsageError`] naming
/// the variable when it is not a whole number >= `min`.
pub fn read_count(name: &str, value: Option<&str>, fallback: usize, min: usize) -> Result<usize, UsageError> {
    let raw = match value {
        None | Some("") => return Ok(fallback),
        Some(raw) => raw,
    };
    match raw.parse::<usize>() {
        Ok(n) if is_digits(raw) && n >= min => Ok(n),
        _ => Err(UsageError(format!(
            "{name}={raw} is not valid: set it to a whole number >= {min}, or unset it for {fallback}"
        ))),
    }
}

/// Reads every knob from `env` (a lookup such as `std::env::var`).
pub fn config_from(env: impl Fn(&str) -> Option<String>) -> Result<Config, UsageError> {
    let catalog = read_count("WIRECOST_CATALOG", env("WIRECOST_CATALOG").as_deref(), 3, 1)?;
    let state_name = match env("WIRECOST_STATE").as_deref() {
        None | Some("") => "WIRECOST_STATE_BYTES",
        Some(_) => "WIRECOST_STATE",
    };
    let state_bytes = read_count(state_name, env(state_name).as_deref(), 0, 0)?;
    let set = |k: &str| env(k).filter(|v| !v.is_empty());
    let tickets_db = (env("WIRECOST_WORKLOAD").as_deref() == Some("tickets")).then(|| {
        set("WIRECOST_TICKETS_DB").unwrap_or_else(|| {
            let dir = set("WIRECOST_TICKETS_DIR")
                .unwrap_or_else(|| format!("{}/wirecost", set("TMPDIR").unwrap_or_else(|| "/tmp".into()).trim_end_matches('/')));
            format!("{dir}/{TICKETS_FILE}")
        })
    });
    Ok(Config { catalog, state_bytes, tickets_db })
}

/// The ticket database's file name, as targets/workload/tickets.ts names it
/// (`${TICKETS_GENERATOR}-${TICKET_COUNT}-${TICKET_SEED}.sqlite`).
pub const TICKETS_FILE: &str = "tickets-v1-5000-20251125.sqlite";

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &[&str]) -> Vec<String> {
        s.iter().map(|a| a.to_string()).collect()
    }

    #[test]
    fn parses_the_cli() {
        assert_eq!(parse_args(&args(&["--transport", "stdio"])), Ok(Transport::Stdio));
        assert_eq!(parse_args(&args(&["--transport=http", "--port", "0"])), Ok(Transport::Http { port: 0 }));
        assert_eq!(parse_args(&args(&["--transport", "http"])), Ok(Transport::Http { port: 0 }));
        assert!(parse_args(&args(&["--transport", "stdio", "--port", "1"])).is_err());
        assert!(parse_args(&args(&["--transport", "http", "--port", "65536"])).is_err());
        assert!(parse_args(&args(&["--transport", "http", "--port", "+1"])).is_err());
        assert!(parse_args(&args(&["--transport", "ws"])).is_err());
        assert!(parse_args(&args(&["--bogus"])).is_err());
        assert!(parse_args(&args(&[])).is_err());
    }

    #[test]
    fn reads_the_knobs() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| pairs.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(config_from(env(&[])), Ok(Config { catalog: 3, state_bytes: 0, tickets_db: None }));
        assert_eq!(
            config_from(env(&[("WIRECOST_CATALOG", "30"), ("WIRECOST_STATE_BYTES", "256")])),
            Ok(Config { catalog: 30, state_bytes: 256, tickets_db: None })
        );
        assert_eq!(
            config_from(env(&[("WIRECOST_STATE", "16"), ("WIRECOST_STATE_BYTES", "256")])),
            Ok(Config { catalog: 3, state_bytes: 16, tickets_db: None })
        );
        let db = |pairs| config_from(env(pairs)).map(|c| c.tickets_db);
        assert_eq!(db(&[("WIRECOST_WORKLOAD", "tickets"), ("WIRECOST_TICKETS_DB", "/d/t.sqlite")]), Ok(Some("/d/t.sqlite".into())));
        assert_eq!(
            db(&[("WIRECOST_WORKLOAD", "tickets"), ("WIRECOST_TICKETS_DIR", "/d")]),
            Ok(Some("/d/tickets-v1-5000-20251125.sqlite".into()))
        );
        assert_eq!(
            db(&[("WIRECOST_WORKLOAD", "tickets"), ("TMPDIR", "/t/")]),
            Ok(Some("/t/wirecost/tickets-v1-5000-20251125.sqlite".into()))
        );
        assert_eq!(db(&[("WIRECOST_WORKLOAD", "other"), ("WIRECOST_TICKETS_DB", "/d/t.sqlite")]), Ok(None));
        assert!(config_from(env(&[("WIRECOST_CATALOG", "0")])).is_err());
        assert!(config_from(env(&[("WIRECOST_STATE", "-1")])).is_err());
    }
}
