//! The Streamable HTTP transport, on std's TcpListener: POST /mcp with a Content-Length body,
//! answered `Content-Type: application/json` (202 and no body for a notification), HTTP/1.1
//! keep-alive unless the request says `Connection: close`; one thread per connection.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::Arc;

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;

use crate::mcp::Server;

/// The only address the server listens on.
pub const HOST: &str = "127.0.0.1";

/// The largest request head or body accepted, bytes.
const MAX_BYTES: usize = 16 << 20;

/// Serves 127.0.0.1:`port` until SIGTERM or SIGINT (exit 0); 1 when it cannot start.
pub fn serve(server: Server, port: u16) -> ExitCode {
    let mut signals = match Signals::new([SIGTERM, SIGINT]) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("known-cost-rust: cannot install the SIGTERM/SIGINT handlers: {e}");
            return ExitCode::from(1);
        }
    };
    let listener = match TcpListener::bind((HOST, port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("known-cost-rust: cannot listen on {HOST}:{port}: {e}");
            return ExitCode::from(1);
        }
    };
    match listener.local_addr() {
        Ok(addr) => eprintln!("listening on {HOST}:{}", addr.port()),
        Err(e) => {
            eprintln!("known-cost-rust: cannot read the bound address: {e}");
            return ExitCode::from(1);
        }
    }
    std::thread::spawn(move || {
        if signals.forever().next().is_some() {
            std::process::exit(0);
        }
    });
    let server = Arc::new(server);
    for stream in listener.incoming().flatten() {
        let server = Arc::clone(&server);
        std::thread::spawn(move || {
            let _ = connection(&server, stream);
        });
    }
    ExitCode::from(1)
}

/// Answers the requests of one connection until the client closes it or asks to.
fn connection(server: &Server, stream: TcpStream) -> std::io::Result<()> {
    stream.set_nodelay(true)?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    loop {
        let mut request_line = String::new();
        if reader.read_line(&mut request_line)? == 0 {
            return Ok(());
        }
        let (mut length, mut close, mut chunked, mut head_bytes) = (0usize, false, false, request_line.len());
        loop {
            let mut line = String::new();
            if reader.read_line(&mut line)? == 0 {
                return Ok(());
            }
            head_bytes += line.len();
            if head_bytes > MAX_BYTES {
                return respond(&mut writer, "431 Request Header Fields Too Large", None, true);
            }
            let line = line.trim_end();
            if line.is_empty() {
                break;
            }
            let Some((name, value)) = line.split_once(':') else { continue };
            let value = value.trim();
            match name.trim().to_ascii_lowercase().as_str() {
                "content-length" => length = value.parse().unwrap_or(usize::MAX),
                "connection" => close = value.eq_ignore_ascii_case("close"),
                "transfer-encoding" => chunked = true,
                _ => {}
            }
        }
        let mut parts = request_line.split_whitespace();
        let (method, path) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
        if chunked || length > MAX_BYTES {
            return respond(&mut writer, "411 Length Required", None, true);
        }
        let mut body = vec![0u8; length];
        reader.read_exact(&mut body)?;
        if path != "/mcp" {
            respond(&mut writer, "404 Not Found", None, close)?;
        } else if method != "POST" {
            respond(&mut writer, "405 Method Not Allowed", None, close)?;
        } else {
            match server.handle(&body) {
                Some(answer) => respond(&mut writer, "200 OK", Some(&answer), close)?,
                None => respond(&mut writer, "202 Accepted", None, close)?,
            }
        }
        if close {
            return Ok(());
        }
    }
}

/// Writes one response: `status`, a JSON body or none, `Connection: close` when `close`.
fn respond(w: &mut TcpStream, status: &str, body: Option<&[u8]>, close: bool) -> std::io::Result<()> {
    let body = body.unwrap_or_default();
    let mut head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\n", body.len());
    if !body.is_empty() {
        head.push_str("Content-Type: application/json\r\n");
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    let mut out = head.into_bytes();
    out.extend_from_slice(body);
    w.write_all(&out)
}
