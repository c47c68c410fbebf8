//! Streamable HTTP on 127.0.0.1: one SDK `StreamableHttpService` with its default configuration
//! (`legacy_session_mode` on: a 2025-era `initialize` opens a session with `Mcp-Session-Id`;
//! requests negotiating 2026-07-28 are served statelessly by the same service; SSE answers; loopback
//! `Host` check). It runs on hyper's HTTP/1.1 connection server, one task per connection; the path
//! is not looked at (use `POST /mcp`). Nothing here writes a byte of its own.

use std::{io, sync::Arc};

use hyper_util::{rt::TokioIo, service::TowerToHyperService};
use rmcp::transport::streamable_http_server::{
    StreamableHttpServerConfig, StreamableHttpService, session::local::LocalSessionManager,
};
use tokio::net::TcpListener;

use crate::{config::Config, tools::Wirecost};

/// The only address the target binds.
pub const HTTP_HOST: &str = "127.0.0.1";

/// Binds 127.0.0.1:`port` (0: the OS picks); the error is the bind failure (exit 1).
pub async fn bind(port: u16) -> io::Result<TcpListener> {
    TcpListener::bind((HTTP_HOST, port)).await
}

/// Serves the SDK's Streamable HTTP service on `listener` until the process ends; returns only when
/// accepting fails.
pub async fn serve(listener: TcpListener, cfg: &Config) -> io::Result<()> {
    let server = Wirecost::new(cfg);
    let service = StreamableHttpService::new(
        move || Ok(server.clone()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default(),
    );
    loop {
        let (stream, _) = listener.accept().await?;
        let hyper_service = TowerToHyperService::new(service.clone());
        tokio::spawn(async move {
            // A connection error (the peer went away mid-answer) ends that connection only.
            let _ = hyper::server::conn::http1::Builder::new()
                .serve_connection(TokioIo::new(stream), hyper_service)
                .await;
        });
    }
}
