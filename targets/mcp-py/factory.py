"""The mcp-py target's tools on `MCPServer` (`mcp` 2.x; 1.x releases: factory_v1.py): echo, add, confirm, the `tool_K` fillers
and, with `WIRECOST_WORKLOAD=tickets`, the ticket tools. Same names, descriptions and argument
shapes as targets/mcp-ts-v2/factory.ts; the schemas' exact bytes are what the SDK derives from the
typed signatures (pydantic: `title` members, its key order).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.request_state import RequestStateBoundary
from mcp.shared.exceptions import MCPError
from mcp_types import (
    MISSING_REQUIRED_CLIENT_CAPABILITY,
    ClientCapabilities,
    ElicitationCapability,
    ElicitRequest,
    ElicitRequestFormParams,
    ElicitResult,
    FormElicitationCapability,
    InputRequiredResult,
    MissingRequiredClientCapabilityErrorData,
)
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from catalog import CONFIRM_INPUT_KEY, CONFIRM_SCHEMA, SERVER_NAME, SERVER_VERSION, add, confirmed_text, named, text_tool
from knobs import CONFIRM_MESSAGE, FILLER_DESCRIPTION, Knobs, request_state_of


def _confirm_tool(knobs: Knobs) -> Callable[..., Any]:
    state = request_state_of(knobs.state_bytes)

    async def confirm(ctx: Context) -> str | InputRequiredResult:
        _require_form_elicitation(ctx)
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # 2026-07-28: answer input_required until the retry carries the answer (and the state).
            answer = (ctx.input_responses or {}).get(CONFIRM_INPUT_KEY)
            state_ok = state == "" or ctx.request_state == state
            if state_ok and isinstance(answer, ElicitResult):
                return _confirmed(answer)
            request = ElicitRequest(params=ElicitRequestFormParams(message=CONFIRM_MESSAGE, requested_schema=CONFIRM_SCHEMA))
            return InputRequiredResult(input_requests={CONFIRM_INPUT_KEY: request}, request_state=state or None)
        # 2025 era: a real server->client elicitation/create, tied to this call's request.
        answer = await ctx.session.elicit_form(CONFIRM_MESSAGE, CONFIRM_SCHEMA, related_request_id=ctx.request_context.request_id)
        return _confirmed(answer)

    return confirm


def _require_form_elicitation(ctx: Context) -> None:
    """Refuse, as the SDK's own resolvers do, a client that cannot answer a form elicitation.

    Raises:
        MCPError: -32021 with `data.requiredCapabilities.elicitation.form` (HTTP 400 on 2026-07-28)
            when the connection (2025) or the request's envelope (2026-07-28) declares no
            `elicitation` capability, or only `elicitation.url`.
    """
    elicitation = ctx.client_capabilities.elicitation if ctx.client_capabilities is not None else None
    if elicitation is not None and (elicitation.form is not None or elicitation.url is None):
        return
    required = ClientCapabilities(elicitation=ElicitationCapability(form=FormElicitationCapability()))
    raise MCPError(
        code=MISSING_REQUIRED_CLIENT_CAPABILITY,
        message="Client did not declare the form elicitation capability that confirm needs",
        data=MissingRequiredClientCapabilityErrorData(required_capabilities=required).model_dump(
            by_alias=True, mode="json", exclude_none=True
        ),
    )


def _confirmed(answer: ElicitResult) -> str:
    return confirmed_text(answer.action, answer.content)


def create_target_server(knobs: Knobs) -> MCPServer:
    """One `MCPServer` with the catalog the knobs ask for.

    `tools/list` lists the first `knobs.catalog_size` of echo, add, confirm, tool_4, tool_5, ...,
    then (with `knobs.tickets`) search_tickets and get_tickets. `knobs.sealed_state` False takes the
    `RequestStateBoundary` MCPServer installs out of its public middleware list.
    """
    server = MCPServer(SERVER_NAME, version=SERVER_VERSION, log_level="DEBUG" if knobs.debug else "WARNING")
    if not knobs.sealed_state:
        server.middleware[:] = [m for m in server.middleware if not isinstance(m, RequestStateBoundary)]
    structured = None if knobs.structured else False  # None: the SDK's own auto-detection
    catalog: list[tuple[Callable[..., Any], str, str]] = [
        (text_tool("echo"), "echo", "Echo the text back."),
        (add, "add", "Add two numbers."),
        (named(_confirm_tool(knobs), "confirm"), "confirm", "Ask the user a yes/no question."),
    ]
    for k in range(len(catalog) + 1, knobs.catalog_size + 1):
        catalog.append((text_tool(f"tool_{k}"), f"tool_{k}", FILLER_DESCRIPTION))
    for fn, name, description in catalog[: knobs.catalog_size]:
        server.add_tool(fn, name=name, description=description, structured_output=structured)
    if knobs.tickets:
        _add_ticket_tools(server, structured)
    return server


def http_app(server: MCPServer, knobs: Knobs, host: str) -> Any:
    """The Streamable HTTP ASGI app at /mcp: `MCPServer.streamable_http_app` with SSE or JSON
    answers as `knobs.json_answers` says and its DNS-rebinding protection for `host`."""
    return server.streamable_http_app(json_response=knobs.json_answers, host=host)


def _add_ticket_tools(server: MCPServer, structured: bool | None) -> None:
    """search_tickets / get_tickets over targets/mcp-py/tickets.py, opened at start-up (read-only)."""
    import tickets

    conn = tickets.open_tickets(tickets.tickets_db_path())

    async def search_tickets(query: str, limit: int) -> str:
        try:
            return tickets.tickets_text(tickets.search_tickets(conn, query, limit))
        except ValueError as e:
            raise ToolError(str(e)) from e

    async def get_tickets(ids: list[int]) -> str:
        try:
            return tickets.tickets_text(tickets.get_tickets(conn, ids))
        except ValueError as e:
            raise ToolError(str(e)) from e

    server.add_tool(search_tickets, name="search_tickets", description="Search support tickets.", structured_output=structured)
    server.add_tool(get_tickets, name="get_tickets", description="Get support tickets by id.", structured_output=structured)
