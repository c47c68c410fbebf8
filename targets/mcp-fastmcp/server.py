"""wirecost target: an MCP server on FastMCP (PyPI `fastmcp`, the most used Python MCP framework).

    OUT/venv/bin/python targets/mcp-fastmcp/server.py --transport stdio
    OUT/venv/bin/python targets/mcp-fastmcp/server.py --transport http --port N   # N=0: the OS picks

stdio: `FastMCP.run_stdio_async(show_banner=False)`. HTTP: `FastMCP.http_app()` (Streamable HTTP at
`/mcp`, FastMCP's defaults) under uvicorn on 127.0.0.1 only, with the settings
`FastMCP.run_http_async` gives uvicorn; prints `listening on 127.0.0.1:PORT` on stderr once it
accepts connections. Knobs (environment, as targets/mcp-ts-v2): `WIRECOST_CATALOG=N` (default 3,
at least 1), `WIRECOST_STATE=N` (or `WIRECOST_STATE_BYTES`; default 0). Exit status: 0 on
SIGTERM/SIGINT or end of stdin, 2 on a bad argument or knob (one line naming it), 1 on a start-up
failure.
"""

import os
import re
import signal
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the target's sources


def _exit_now(signum: int, frame: object) -> None:
    """SIGTERM/SIGINT: every answer is already flushed (the SDK flushes per message), so leave at once."""
    os._exit(0)


# Installed before FastMCP is imported (about a second of imports), so an early signal also exits 0.
# While uvicorn serves it has its own handlers; it puts these back and re-raises the signal after
# its graceful shutdown, which lands here.
signal.signal(signal.SIGTERM, _exit_now)
signal.signal(signal.SIGINT, _exit_now)

TARGET = "mcp-fastmcp"
HOST = "127.0.0.1"
USAGE = "usage: server.py --transport stdio | --transport http [--port N]"
#: serverInfo name; the version is fixed so it never changes the byte counts.
SERVER_NAME = "wirecost-mcp-fastmcp"
SERVER_VERSION = "1.0.0"
#: Texts of targets/common/config.ts.
FILLER_DESCRIPTION = "Catalog filler tool."
CONFIRM_MESSAGE = "Proceed?"
CONFIRM_KEY = "confirm"
#: Alphabet the `requestState` filler cycles through (base64url characters: no JSON escaping).
STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


def fail(message: str, status: int) -> None:
    """Print `mcp-fastmcp: <message>` as one line on stderr and exit with `status`."""
    sys.stderr.write(f"{TARGET}: {message}\n")
    sys.stderr.flush()
    os._exit(status)


def parse_args(argv: list[str]) -> tuple[str, int]:
    """`--transport stdio | --transport http [--port N]` (also `--opt=value`) -> (transport, port).

    Exits 2 on an unknown or repeated option, a missing value, a missing or unknown transport,
    `--port` with stdio, or a port outside 0-65535.
    """
    values: dict[str, str] = {}
    i = 0
    while i < len(argv):
        name, eq, value = argv[i].partition("=")
        if name not in ("--transport", "--port"):
            fail(f"unknown argument {argv[i]!r} ({USAGE})", 2)
        if not eq:
            if i + 1 >= len(argv):
                fail(f"{name} needs a value ({USAGE})", 2)
            i += 1
            value = argv[i]
        if name in values:
            fail(f"{name} given twice ({USAGE})", 2)
        values[name] = value
        i += 1
    transport = values.get("--transport")
    if transport == "stdio":
        if "--port" in values:
            fail("--port applies to --transport http only", 2)
        return "stdio", 0
    if transport == "http":
        raw = values.get("--port", "0")
        if not re.fullmatch(r"[0-9]+", raw) or int(raw) > 65535:
            fail(f"--port {raw} is not a port: give a number from 0 to 65535", 2)
        return "http", int(raw)
    fail(f"--transport is required ({USAGE})" if transport is None else f'unknown transport "{transport}": use stdio or http', 2)
    raise AssertionError("unreachable")


def read_count(name: str, fallback: int, minimum: int) -> int:
    """A whole-number knob from the environment: `fallback` when unset or empty; exits 2 naming it when bad."""
    raw = os.environ.get(name, "")
    if raw == "":
        return fallback
    if not re.fullmatch(r"[0-9]+", raw) or int(raw) < minimum:
        fail(f"{name}={raw} is not valid: set it to a whole number >= {minimum}, or unset it for {fallback}", 2)
    return int(raw)


def request_state_of(size: int) -> str:
    """The deterministic `requestState` plaintext of exactly `size` ASCII bytes (empty when 0)."""
    reps, rest = divmod(size, len(STATE_ALPHABET))
    return STATE_ALPHABET * reps + STATE_ALPHABET[:rest]


def js_number(v: float) -> str:
    """`v` as JavaScript's `String(v)` prints a finite number (3 -> "3", 0.1+0.2 -> "0.30000000000000004")."""
    if v == 0:
        return "0"
    if v == int(v) and abs(v) < 1e21:
        return str(int(v))
    if 1e-6 <= abs(v) < 1e21:
        return repr(v)
    mantissa, _, exp = repr(v).partition("e")
    return f"{mantissa}e{exp[0]}{exp[1:].lstrip('0')}"


def create_server(catalog: int, state: str):
    """The FastMCP server with the first `catalog` of echo, add, confirm, tool_4, … (FastMCP defaults otherwise)."""
    from dataclasses import dataclass

    import mcp.types as mt
    from fastmcp import Context, FastMCP

    server = FastMCP(SERVER_NAME, version=SERVER_VERSION)

    def echo(text: str) -> str:
        """Echo the text back."""
        return text

    def add(a: float, b: float) -> str:
        """Add two numbers."""
        return js_number(a + b)

    # What confirm asks for: {"confirm": boolean}. (A docstring here would go on the wire: FastMCP
    # puts a dataclass's docstring into the elicitation schema's "description".)
    @dataclass
    class Answer:
        confirm: bool

    async def confirm(ctx: Context) -> str:
        """Ask the user a yes/no question."""
        if ctx.request_context is not None and ctx.request_context.protocol_version >= "2026-07-28":
            # 2026-07-28 (SEP-2322): FastMCP's guard pattern, an InputRequiredResult and a retry.
            answer = (ctx.input_responses or {}).get(CONFIRM_KEY)
            if answer is not None and (state == "" or ctx.request_state == state):
                ok = getattr(answer, "action", None) == "accept" and (getattr(answer, "content", None) or {}).get("confirm") is True
                return "confirmed: yes" if ok else "confirmed: no"
            ask = mt.ElicitRequest(
                method="elicitation/create",
                params=mt.ElicitRequestFormParams(
                    message=CONFIRM_MESSAGE,
                    requested_schema={"type": "object", "properties": {"confirm": {"type": "boolean"}}, "required": ["confirm"]},
                ),
            )
            return mt.InputRequiredResult(input_requests={CONFIRM_KEY: ask}, request_state=state or None)
        # 2025 era: FastMCP's imperative elicitation (a server→client elicitation/create).
        result = await ctx.elicit(CONFIRM_MESSAGE, Answer)
        return "confirmed: yes" if result.action == "accept" and result.data.confirm else "confirmed: no"

    tools = [(echo, "echo"), (add, "add"), (confirm, "confirm")]
    for fn, name in tools[:catalog]:
        server.tool(fn, name=name)
    for k in range(len(tools) + 1, catalog + 1):

        def filler(text: str) -> str:
            return text

        server.tool(filler, name=f"tool_{k}", description=FILLER_DESCRIPTION)
    return server


async def serve_http(server, port: int) -> None:
    """Serve Streamable HTTP at /mcp on 127.0.0.1:`port` until SIGTERM/SIGINT.

    uvicorn gets the settings `FastMCP.run_http_async` gives it; the socket is bound here so port 0
    can be reported.
    """
    import socket

    import anyio
    import uvicorn

    app = server.http_app()
    # IPPROTO_TCP named, as the socket uvicorn makes from host and port has it: asyncio turns Nagle's
    # algorithm off (TCP_NODELAY) only on sockets whose proto is IPPROTO_TCP, and without it a response
    # head and body sent apart wait for the client's delayed ACK (about 40 ms a call here).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind((HOST, port))
    config = uvicorn.Config(app, host=HOST, port=port, log_level="warning", timeout_graceful_shutdown=2, lifespan="on", ws="websockets-sansio")
    uv = uvicorn.Server(config)

    async def announce() -> None:
        while not uv.started:
            await anyio.sleep(0.005)
        sys.stderr.write(f"listening on {HOST}:{sock.getsockname()[1]}\n")
        sys.stderr.flush()

    async with anyio.create_task_group() as tg:
        tg.start_soon(announce)
        await uv.serve(sockets=[sock])
        tg.cancel_scope.cancel()


def main() -> None:
    """Parse the command line and the knobs, build the server, serve until stopped."""
    transport, port = parse_args(sys.argv[1:])
    catalog = read_count("WIRECOST_CATALOG", 3, 1)
    state_name = "WIRECOST_STATE" if os.environ.get("WIRECOST_STATE", "") != "" else "WIRECOST_STATE_BYTES"
    state = request_state_of(read_count(state_name, 0, 0))
    try:
        import anyio

        server = create_server(catalog, state)
    except Exception as e:  # start-up failure: one line, exit 1
        fail(f"start-up failed: {type(e).__name__}: {e}", 1)
        return
    if transport == "stdio":
        anyio.run(lambda: server.run_stdio_async(show_banner=False, log_level="WARNING"))
    else:
        try:
            anyio.run(serve_http, server, port)
        except OSError as e:  # the port cannot be bound: a start-up failure
            fail(f"cannot listen on {HOST}:{port}: {e.strerror or e}", 1)
    sys.stdout.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
