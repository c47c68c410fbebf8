"""The mcp-py target's tools on `MCPServer` (mcp 2.2.0): echo, add, confirm, the `tool_K` fillers
and, with `WIRECOST_WORKLOAD=tickets`, the ticket tools. Same names, descriptions and argument
shapes as targets/mcp-ts-v2/factory.ts; the schemas' exact bytes are what the SDK derives from the
typed signatures (pydantic: `title` members, its key order).
"""

from __future__ import annotations

import decimal
import math
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

from knobs import CONFIRM_MESSAGE, FILLER_DESCRIPTION, Knobs, request_state_of

#: `serverInfo.name`; the version is fixed so it never changes the byte counts.
SERVER_NAME = "wirecost-mcp-py"
SERVER_VERSION = "1.0.0"
#: Key of `confirm`'s one input request on 2026-07-28 (`inputRequests.confirm`).
CONFIRM_INPUT_KEY = "confirm"
#: The form `confirm` asks for: the same JSON Schema, member for member, as mcp-ts-v2's.
CONFIRM_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"confirm": {"type": "boolean"}},
    "required": ["confirm"],
}


def js_number(x: float) -> str:
    """`String(x)` as JavaScript writes a number (ECMAScript Number::toString), e.g. 3.0 -> "3"."""
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    # repr() gives the shortest round-tripping digits, as JavaScript does; only the layout differs.
    t = decimal.Decimal(repr(abs(float(x)))).normalize().as_tuple()
    s = "".join(map(str, t.digits))
    k = len(s)
    n = int(t.exponent) + k
    if k <= n <= 21:
        out = s + "0" * (n - k)
    elif 0 < n <= 21:
        out = s[:n] + "." + s[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * -n + s
    else:
        e = n - 1
        out = s[0] + ("." + s[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out


def _named(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Give `fn` the tool's name: the SDK titles the schemas `<name>Arguments` / `<name>Output`."""
    fn.__name__ = name
    fn.__qualname__ = name
    return fn


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
    yes = answer.action == "accept" and answer.content is not None and answer.content.get("confirm") is True
    return "confirmed: yes" if yes else "confirmed: no"


def _text_tool(name: str) -> Callable[..., Any]:
    async def tool(text: str) -> str:
        return text

    return _named(tool, name)


async def add(a: float, b: float) -> str:
    """Add two numbers."""
    return js_number(a + b)


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
        (_text_tool("echo"), "echo", "Echo the text back."),
        (add, "add", "Add two numbers."),
        (_named(_confirm_tool(knobs), "confirm"), "confirm", "Ask the user a yes/no question."),
    ]
    for k in range(len(catalog) + 1, knobs.catalog_size + 1):
        catalog.append((_text_tool(f"tool_{k}"), f"tool_{k}", FILLER_DESCRIPTION))
    for fn, name, description in catalog[: knobs.catalog_size]:
        server.add_tool(fn, name=name, description=description, structured_output=structured)
    if knobs.tickets:
        _add_ticket_tools(server, structured)
    return server


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
