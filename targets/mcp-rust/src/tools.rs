//! The tools mcp-rust serves and the rmcp `ServerHandler` they are registered on. Everything that
//! reaches the wire from here is fixed text, so the bytes are deterministic for a given
//! configuration. The catalog, texts and knobs are the ones of targets/mcp-ts-v2 (factory.ts) and
//! targets/common/config.ts.

use std::sync::Arc;

use rmcp::{
    ErrorData, RoleServer, ServerHandler,
    handler::server::{
        common::{schema_for_empty_input, schema_for_input},
        router::tool::{ToolRoute, ToolRouter},
        tool::{InputResponses, RequestState, ToolCallContext},
        wrapper::Parameters,
    },
    model::{
        CacheScope, CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock,
        ElicitRequest, ElicitRequestParams, ElicitationAction, ElicitationSchema, Implementation,
        InputRequest, InputRequests, InputRequiredResult, ListToolsResult, PaginatedRequestParams,
        ProtocolVersion, ResultType, ServerCapabilities, ServerConfig, Tool,
    },
    service::RequestContext,
};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value;

use crate::config::Config;

/// Reported in serverInfo (2025 initialize result, 2026 result `_meta`).
pub const SERVER_NAME: &str = "wirecost-mcp-rust";
/// Fixed on purpose, so it never changes the byte counts.
pub const SERVER_VERSION: &str = "1.0.0";
/// The description of every tool_K filler tool.
const FILLER_DESCRIPTION: &str = "Catalog filler tool.";
/// The question confirm puts to the user.
const CONFIRM_MESSAGE: &str = "Proceed?";
/// The key of confirm's one input request (`inputRequests.confirm`) and of its answer's field.
const CONFIRM_KEY: &str = "confirm";
/// What requestState cycles through (base64url characters: no JSON escaping).
const STATE_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// The input of echo and of every tool_K filler: `{"text": string}`.
#[derive(Deserialize, JsonSchema)]
pub struct TextArgs {
    text: String,
}

/// The input of add: `{"a": number, "b": number}`.
#[derive(Deserialize, JsonSchema)]
pub struct AddArgs {
    a: f64,
    b: f64,
}

/// The deterministic requestState of exactly `n` ASCII bytes (`""` when `n` is 0).
pub fn request_state_of(n: usize) -> String {
    (0..n).map(|i| STATE_ALPHABET[i % STATE_ALPHABET.len()] as char).collect()
}

/// Formats `v` as JavaScript's `String(v)` does (3 → "3", 0.1+0.2 → "0.30000000000000004",
/// 1e21 → "1e+21", 1e-6 → "0.000001", 1e-7 → "1e-7"), so add answers the text of the TypeScript
/// targets.
pub fn js_number(v: f64) -> String {
    if v == 0.0 {
        return "0".into(); // also -0, which JavaScript prints as "0"
    }
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    let abs = v.abs();
    if (1e-6..1e21).contains(&abs) {
        return format!("{v}"); // shortest round-trip digits, never an exponent
    }
    let s = format!("{v:e}"); // e.g. "1e21", "1.5e-7"
    match s.split_once('e') {
        Some((mantissa, exp)) if !exp.starts_with('-') => format!("{mantissa}e+{exp}"),
        _ => s,
    }
}

/// A tool result of one text content item.
fn text(s: impl Into<String>) -> CallToolResult {
    CallToolResult::success(vec![ContentBlock::text(s.into())])
}

/// echo and the tool_K fillers: answer the text argument back.
async fn echo(Parameters(args): Parameters<TextArgs>) -> CallToolResult {
    text(args.text)
}

/// add: `String(a + b)` as JavaScript prints it.
async fn add(Parameters(args): Parameters<AddArgs>) -> CallToolResult {
    text(js_number(args.a + args.b))
}

/// confirm's question: `{"confirm": boolean}`, required; the same on both eras.
fn confirm_question() -> ElicitRequestParams {
    ElicitRequestParams::FormElicitationParams {
        meta: None,
        message: CONFIRM_MESSAGE.into(),
        requested_schema: ElicitationSchema::builder()
            .required_bool(CONFIRM_KEY)
            .build()
            .expect("a one-boolean schema is valid"),
    }
}

/// The answer text for an elicitation result: "confirmed: yes" only for accept with confirm=true.
fn confirmed(accepted: bool, content: Option<&Value>) -> CallToolResult {
    let yes = accepted && content.and_then(|c| c.get(CONFIRM_KEY)) == Some(&Value::Bool(true));
    text(if yes { "confirmed: yes" } else { "confirmed: no" })
}

/// confirm: ask the user one yes/no question. 2025 era (a session that ran `initialize`): a real
/// server→client `elicitation/create` through the SDK's `Peer::create_elicitation`, answered
/// in-process. 2026-07-28: the SDK's MRTR result, `InputRequiredResult` (with `requestState` when
/// `state` is not empty); the retry carrying `inputResponses.confirm` (and, when set, exactly that
/// `requestState`) is answered, anything else asks again.
async fn confirm(
    context: RequestContext<RoleServer>,
    state: Arc<str>,
    request_state: Option<String>,
    input_responses: Option<rmcp::model::InputResponses>,
) -> Result<CallToolResponse, ErrorData> {
    let modern = context.protocol_version().is_some_and(|v| !v.has_initialize());
    if !modern {
        return match context.peer.create_elicitation(confirm_question()).await {
            Ok(answer) => Ok(confirmed(answer.action == ElicitationAction::Accept, answer.content.as_ref()).into()),
            Err(e) => Ok(CallToolResult::error(vec![ContentBlock::text(format!("elicitation failed: {e}"))]).into()),
        };
    }
    let state_ok = state.is_empty() || request_state.as_deref() == Some(&*state);
    if let Some(answer) = input_responses.as_ref().and_then(|r| r.get(CONFIRM_KEY)).filter(|_| state_ok) {
        let accepted = answer.get("action").and_then(Value::as_str) == Some("accept");
        return Ok(confirmed(accepted, answer.get("content")).into());
    }
    let mut requests = InputRequests::new();
    requests.insert(CONFIRM_KEY.into(), InputRequest::Elicitation(ElicitRequest::new(confirm_question())));
    let state = (!state.is_empty()).then(|| state.to_string());
    Ok(InputRequiredResult::new(Some(requests), state).into())
}

/// The MCP server: the catalog in an SDK `ToolRouter` (which lists tools sorted by name).
#[derive(Clone)]
pub struct Wirecost {
    router: Arc<ToolRouter<Wirecost>>,
}

/// A tool's listing: name, description, input schema.
fn tool(name: impl Into<String>, description: &'static str, schema: Arc<rmcp::model::JsonObject>) -> Tool {
    Tool::new(name.into(), description, schema)
}

impl Wirecost {
    /// Builds the server with the first `cfg.catalog` of echo, add, confirm, tool_4, tool_5, …,
    /// and search_tickets and get_tickets when `cfg.tickets_db` is set.
    pub fn new(cfg: &Config) -> Self {
        let text_schema = schema_for_input::<TextArgs>().expect("TextArgs is an object");
        let add_schema = schema_for_input::<AddArgs>().expect("AddArgs is an object");
        let state: Arc<str> = request_state_of(cfg.state_bytes).into();
        let mut routes: Vec<ToolRoute<Wirecost>> = vec![
            ToolRoute::new(tool("echo", "Echo the text back.", text_schema.clone()), echo),
            ToolRoute::new(tool("add", "Add two numbers.", add_schema), add),
            ToolRoute::new(
                tool("confirm", "Ask the user a yes/no question.", schema_for_empty_input()),
                move |ctx: RequestContext<RoleServer>, RequestState(rs): RequestState, InputResponses(ir): InputResponses| {
                    confirm(ctx, state.clone(), rs, ir)
                },
            ),
        ];
        for k in routes.len() + 1..=cfg.catalog {
            routes.push(ToolRoute::new(tool(format!("tool_{k}"), FILLER_DESCRIPTION, text_schema.clone()), echo));
        }
        let mut router = ToolRouter::new();
        for route in routes.into_iter().take(cfg.catalog) {
            router.add_route(route);
        }
        // The per-call workload (WIRECOST_WORKLOAD=tickets), after the catalog.
        if let Some(db) = &cfg.tickets_db {
            for route in crate::tickets::ticket_routes(Arc::new(crate::tickets::TicketStore::new(db.clone()))) {
                router.add_route(route);
            }
        }
        Self { router: Arc::new(router) }
    }
}

impl ServerHandler for Wirecost {
    /// serverInfo `wirecost-mcp-rust` 1.0.0 and `{"tools":{"listChanged":true}}`, as the
    /// TypeScript targets declare.
    fn get_info(&self) -> ServerConfig {
        let mut info = ServerConfig::new(ServerCapabilities::builder().enable_tools().enable_tool_list_changed().build());
        info.server_info = Implementation::new(SERVER_NAME, SERVER_VERSION);
        info
    }

    /// Dispatches to the router (what the SDK's `#[tool_handler]` macro generates).
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.router.call(ToolCallContext::new(self, request, context)).await
    }

    /// The catalog, sorted by name; the 2026-07-28 cache hints as the SDK's `#[tool_handler]`
    /// macro sets them (`ttlMs` 0, `cacheScope` public, only on 2026-07-28 and later).
    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let hints = context.protocol_version().is_some_and(|v| v >= ProtocolVersion::V_2026_07_28);
        let mut result = ListToolsResult::default();
        result.result_type = Some(ResultType::COMPLETE);
        result.tools = self.router.list_all();
        result.ttl_ms = hints.then_some(0);
        result.cache_scope = hints.then_some(CacheScope::Public);
        Ok(result)
    }

    /// A tool's definition, for the SDK's argument checks.
    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.router.get(name).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_print_as_javascript_does() {
        assert_eq!(js_number(1.0 + 2.0), "3");
        assert_eq!(js_number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(js_number(-0.0), "0");
        assert_eq!(js_number(1e21), "1e+21");
        assert_eq!(js_number(1e20), "100000000000000000000");
        assert_eq!(js_number(1e-6), "0.000001");
        assert_eq!(js_number(1e-7), "1e-7");
        assert_eq!(js_number(-1.5e-7), "-1.5e-7");
        assert_eq!(js_number(2.5), "2.5");
    }

    #[test]
    fn request_state_has_exact_length() {
        assert_eq!(request_state_of(0), "");
        assert_eq!(request_state_of(3), "ABC");
        assert_eq!(request_state_of(66).len(), 66);
        assert!(request_state_of(66).ends_with("_AB"));
    }
}
