"""The mcp-py target's catalog pieces that need no SDK: the server's name and version, the form
`confirm` asks for, JavaScript's number text and the text tools, shared by factory.py (`mcp` 2.x,
`MCPServer`) and factory_v1.py (`mcp` 1.x, `FastMCP`). Same names, descriptions and argument
shapes as targets/mcp-ts-v2/factory.ts.
"""

from __future__ import annotations

import decimal
import math
from collections.abc import Callable
from typing import Any

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


def named(fn: Callable[..., Any], name: str) -> Callable[..., Any]:
    """Give `fn` the tool's name: the SDK titles the schemas `<name>Arguments` / `<name>Output`."""
    fn.__name__ = name
    fn.__qualname__ = name
    return fn


def text_tool(name: str) -> Callable[..., Any]:
    """A tool named `name` that returns its `text` argument (echo and the `tool_K` fillers)."""

    async def tool(text: str) -> str:
        return text

    return named(tool, name)


async def add(a: float, b: float) -> str:
    """Add two numbers."""
    return js_number(a + b)


def confirmed_text(action: str, content: dict[str, Any] | None) -> str:
    """`confirm`'s answer to an elicitation result: "confirmed: yes" only for an accepted `confirm: true`."""
    yes = action == "accept" and content is not None and content.get("confirm") is True
    return "confirmed: yes" if yes else "confirmed: no"
