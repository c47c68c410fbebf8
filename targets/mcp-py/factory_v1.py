"""The mcp-py target's tools on the 1.x Python SDK (`mcp` 1.x, `FastMCP`; run at 1.22.0 … 1.30.0): the adapter
the releases report (matrices/mcp-sdk-releases.yaml) uses for releases before 2.0.0, whose server
class is `mcp.server.fastmcp.FastMCP` (renamed `MCPServer` in 2.0.0). Same tools, names,
descriptions and typed signatures as factory.py, so the schemas are what each release derives.

What 1.x cannot do, and what this adapter does instead:
- no 2026-07-28 (1.x speaks the 2025 revisions only): `confirm` always sends a server->client
  `elicitation/create` (the 2025-era path of factory.py), with the same form schema;
- no `version=` on `FastMCP`: `serverInfo.version` is set on the low-level server the SDK builds
  (`FastMCP._mcp_server.version`, a private attribute), so it is "1.0.0" as in every other target
  rather than the SDK's own version;
- no `RequestStateBoundary` (no requestState in the 2025 era): `WIRECOST_PYSTATE` has no effect;
- `json_response` is a constructor setting, not an argument of `streamable_http_app`.
The form-capability refusal of factory.py (-32021) is not reproduced: 1.x has no such error code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mcp.server.fastmcp import Context, FastMCP

from catalog import CONFIRM_SCHEMA, SERVER_NAME, SERVER_VERSION, add, confirmed_text, named, text_tool
from knobs import CONFIRM_MESSAGE, FILLER_DESCRIPTION, Knobs


def _confirm_tool() -> Callable[..., Any]:
    async def confirm(ctx: Context) -> str:
        answer = await ctx.request_context.session.elicit(
            CONFIRM_MESSAGE, CONFIRM_SCHEMA, related_request_id=ctx.request_context.request_id
        )
        return confirmed_text(answer.action, answer.content)

    return confirm


def create_target_server(knobs: Knobs) -> FastMCP:
    """One `FastMCP` with the catalog the knobs ask for (as factory.create_target_server).

    `knobs.json_answers` becomes the `json_response` setting; `knobs.sealed_state` is ignored (see
    the module docstring); `knobs.tickets` is not served (the releases report does not use it).

    Raises:
        ValueError: when `knobs.tickets` is set (the ticket tools are served on 2.x only).
    """
    if knobs.tickets:
        raise ValueError("WIRECOST_WORKLOAD=tickets is served by mcp 2.x only (factory.py)")
    server = FastMCP(SERVER_NAME, log_level="DEBUG" if knobs.debug else "WARNING", json_response=knobs.json_answers)
    server._mcp_server.version = SERVER_VERSION
    structured = None if knobs.structured else False  # None: the SDK's own auto-detection
    catalog: list[tuple[Callable[..., Any], str, str]] = [
        (text_tool("echo"), "echo", "Echo the text back."),
        (add, "add", "Add two numbers."),
        (named(_confirm_tool(), "confirm"), "confirm", "Ask the user a yes/no question."),
    ]
    for k in range(len(catalog) + 1, knobs.catalog_size + 1):
        catalog.append((text_tool(f"tool_{k}"), f"tool_{k}", FILLER_DESCRIPTION))
    for fn, name, description in catalog[: knobs.catalog_size]:
        server.add_tool(fn, name=name, description=description, structured_output=structured)
    return server


def http_app(server: FastMCP, knobs: Knobs, host: str) -> Any:
    """The Streamable HTTP ASGI app at /mcp (`FastMCP.streamable_http_app()`; its settings carry
    `json_response`, and its default host setting is 127.0.0.1, `host` is served by uvicorn)."""
    del knobs, host  # both are settings of the FastMCP built above
    return server.streamable_http_app()

