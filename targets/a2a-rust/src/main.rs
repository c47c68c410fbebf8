//! A2A echo agent on the Rust SDK (`a2a-protocol-server` / `a2a-protocol-types`, A2A 1.0,
//! JSON-RPC binding at path `/`), wirecost's counterpart of `targets/a2a-js/server.ts`.
//!
//! Every `SendMessage` gets a completed task whose one artifact is a text part `Echo: <text>`,
//! where `<text>` is the concatenated text parts of the user message. `configuration.historyLength`
//! is honoured by the SDK. The task store is the SDK's default in-memory one.
//!
//! Usage: `a2a-rust --port N` (N=0: the OS picks) — listens on 127.0.0.1:N and prints
//! `listening on 127.0.0.1:PORT` on stderr once bound. Exit status: 0 after SIGTERM/SIGINT,
//! 2 on a bad argument or profile knob, 1 on a start-up failure. With `WIRECOST_PROFILE_OUT` set,
//! SIGUSR1 and SIGUSR2 open and close a CPU profile window (targets/common/profile-window).

use std::process::ExitCode;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use a2a_protocol_server::{
    AgentExecutor, JsonRpcDispatcher, RequestContext, RequestHandlerBuilder, Server,
    streaming::EventQueueWriter,
};
use a2a_protocol_types::agent_card::{AgentCard, AgentInterface, AgentSkill};
use a2a_protocol_types::artifact::Artifact;
use a2a_protocol_types::error::A2aResult;
use a2a_protocol_types::events::StreamResponse;
use a2a_protocol_types::message::Part;
use a2a_protocol_types::task::{ContextId, Task, TaskState, TaskStatus};

/// The usage line printed on a bad argument.
const USAGE: &str = "usage: a2a-rust [--transport http] --port N (0–65535, 0: the OS picks)";

/// Parse the command line (without the program name).
///
/// Accepts `--port N` (required, 0–65535) and an optional `--transport http` (the only transport).
/// Returns the port, or an error message naming the bad argument and the fix.
fn parse_args(args: &[String]) -> Result<u16, String> {
    let mut port = None;
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        match arg.as_str() {
            "--port" => {
                let value = it
                    .next()
                    .ok_or_else(|| format!("--port needs a value; {USAGE}"))?;
                port = Some(
                    value
                        .parse::<u16>()
                        .map_err(|_| format!("--port {value:?} is not a port number; {USAGE}"))?,
                );
            }
            "--transport" => match it.next().map(String::as_str) {
                Some("http") => {}
                Some(other) => {
                    return Err(format!(
                        "--transport {other:?} is not supported (this target serves http only); {USAGE}"
                    ));
                }
                None => return Err(format!("--transport needs a value; {USAGE}")),
            },
            other => return Err(format!("unknown argument {other:?}; {USAGE}")),
        }
    }
    port.ok_or_else(|| format!("--port is required; {USAGE}"))
}

/// The echo executor: writes one completed task snapshot whose one artifact is `Echo: <text>`.
///
/// Artifact ids are `echo-1`, `echo-2`, … per process, as in the JS target.
#[derive(Default)]
struct EchoExecutor {
    artifact_seq: AtomicU64,
}

impl AgentExecutor for EchoExecutor {
    fn execute<'a>(
        &'a self,
        ctx: &'a RequestContext,
        queue: &'a dyn EventQueueWriter,
    ) -> std::pin::Pin<Box<dyn std::future::Future<Output = A2aResult<()>> + Send + 'a>> {
        Box::pin(async move {
            let text: String = ctx.message.texts().collect();
            let seq = self.artifact_seq.fetch_add(1, Ordering::Relaxed) + 1;
            let mut artifact = Artifact::new(
                format!("echo-{seq}"),
                vec![Part::text(format!("Echo: {text}")).with_media_type("text/plain")],
            );
            artifact.name = Some("echo".to_owned());
            let task = Task {
                id: ctx.task_id.clone(),
                context_id: ContextId::new(ctx.context_id.clone()),
                status: TaskStatus::with_timestamp(TaskState::Completed),
                artifacts: Some(vec![artifact]),
                history: Some(vec![ctx.message.clone()]),
                metadata: None,
            };
            queue.write(StreamResponse::Task(task)).await
        })
    }
}

/// The agent card served at `/.well-known/agent-card.json` (not used by the timing flows).
///
/// The SDK refuses a card without a skill, so it declares one `echo` skill (the JS card has none).
fn agent_card(port: u16) -> AgentCard {
    AgentCard::new(
        "wirecost echo",
        "1.0.0",
        AgentInterface::jsonrpc(format!("http://127.0.0.1:{port}/")),
    )
    .with_description("Echoes the text of each message as a completed task artifact.")
    .with_skill(AgentSkill::new("echo", "Echo", "Echoes the message text").with_tags(["echo"]))
}

/// Resolves on the first SIGTERM or SIGINT. Errors if the handlers cannot be installed.
async fn shutdown_signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())?;
    let mut int = signal(SignalKind::interrupt())?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}

/// Bind 127.0.0.1:`port`, announce it, and serve until SIGTERM/SIGINT.
/// Returns the start-up failure as a one-line message.
async fn run(port: u16) -> Result<(), String> {
    let shutdown = shutdown_signal()
        .await
        .map_err(|e| format!("cannot install signal handlers: {e}"))?;
    let server = Server::bind(("127.0.0.1", port))
        .await
        .map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e} (pick a free port)"))?;
    let bound = server
        .local_addr()
        .map_err(|e| format!("cannot read the bound address: {e}"))?;
    let handler = RequestHandlerBuilder::new(EchoExecutor::default())
        .with_agent_card(agent_card(bound.port()))
        .build()
        .map_err(|e| format!("cannot build the request handler: {e}"))?;
    eprintln!("listening on 127.0.0.1:{}", bound.port());
    let report = server
        .serve_with_shutdown(JsonRpcDispatcher::new(Arc::new(handler)), shutdown)
        .await;
    match report.refused {
        Some(why) => Err(format!("the SDK refused to serve: {why}")),
        None => Ok(()),
    }
}

#[tokio::main]
async fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // The profile window (WIRECOST_PROFILE_OUT): nothing is installed without it.
    let port = match parse_args(&args).and_then(|port| profile_window::install("a2a-rust").map(|()| port)) {
        Ok(port) => port,
        Err(msg) => {
            eprintln!("{msg}");
            return ExitCode::from(2);
        }
    };
    match run(port).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("a2a-rust: {msg}");
            ExitCode::from(1)
        }
    }
}
