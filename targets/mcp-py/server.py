"""wirecost target: an MCP server on the Python MCP SDK (`mcp` 2.x `MCPServer`, factory.py; the
releases report also runs it on 1.x releases' `FastMCP`, factory_v1.py, picked by the installed
`mcp` version).

    OUT/venv/bin/python targets/mcp-py/server.py --transport stdio
    OUT/venv/bin/python targets/mcp-py/server.py --transport http --port N   # N=0: the OS picks

stdio: `run_stdio_async` (the connection's era, 2025 or 2026-07-28, is chosen by its
first request). HTTP: `MCPServer.streamable_http_app()` at `/mcp` under uvicorn on 127.0.0.1 only,
configured as `MCPServer.run_streamable_http_async` does; prints `listening on 127.0.0.1:PORT` on
stderr once it accepts connections. Knobs: see knobs.py and README.md.
Exit status: 0 on SIGTERM/SIGINT or end of stdin, 2 on a bad argument or knob (one line naming it),
1 on a start-up failure.
"""

from __future__ import annotations

import os
import signal
import sys

sys.dont_write_bytecode = True  # leave no __pycache__ beside the target's sources

def _exit_now(signum: int, frame: object) -> None:
    """SIGTERM/SIGINT: every answer is already flushed (the SDK flushes per message), so leave at once."""
    os._exit(0)


# Installed before the SDK is imported (about 1 s of imports), so an early signal also exits 0.
# While uvicorn serves it has its own handlers; it puts these back and re-raises the signal after
# its graceful shutdown, which lands here.
signal.signal(signal.SIGTERM, _exit_now)
signal.signal(signal.SIGINT, _exit_now)

TARGET = "mcp-py"
HOST = "127.0.0.1"
USAGE = "usage: server.py --transport stdio | --transport http [--port N]"


def usage_error(message: str) -> None:
    """Print `mcp-py: <message>` as one line on stderr (with the usage for argument errors), then exit 2."""
    sys.stderr.write(f"{TARGET}: {message}\n")
    sys.stderr.flush()
    os._exit(2)


def parse_args(argv: list[str]) -> tuple[str, int]:
    """`--transport stdio | --transport http [--port N]` (also `--opt=value`) -> (transport, port).

    Exits 2 via :func:`usage_error` on an unknown or repeated option, a missing value, a missing or
    unknown transport, `--port` with stdio, or a port outside 0-65535.
    """
    values: dict[str, str] = {}
    i = 0
    while i < len(argv):
        arg = argv[i]
        name, eq, value = arg.partition("=")
        if name not in ("--transport", "--port"):
            usage_error(f"unknown argument {arg!r} ({USAGE})")
        if not eq:
            if i + 1 >= len(argv):
                usage_error(f"{name} needs a value ({USAGE})")
            i += 1
            value = argv[i]
        if name in values:
            usage_error(f"{name} given twice ({USAGE})")
        values[name] = value
        i += 1
    transport = values.get("--transport")
    if transport == "stdio":
        if "--port" in values:
            usage_error("--port applies to --transport http only")
        return "stdio", 0
    if transport == "http":
        raw = values.get("--port", "0")
        if not raw.isascii() or not raw.isdigit() or int(raw) > 65535:
            usage_error(f"--port {raw} is not a port: give a number from 0 to 65535")
        return "http", int(raw)
    usage_error(f"--transport is required ({USAGE})" if transport is None else f'unknown transport "{transport}": use stdio or http')
    raise AssertionError("unreachable")


def target_factory():
    """The module that builds the server for the installed `mcp`: factory_v1 for 1.x, else factory.

    Both have `create_target_server(knobs)` and `http_app(server, knobs, host)`.
    """
    from importlib import import_module
    from importlib.metadata import version

    return import_module("factory_v1" if version("mcp").split(".")[0] == "1" else "factory")


async def serve_http(factory, server, port: int, knobs) -> None:
    """Serve Streamable HTTP at /mcp on 127.0.0.1:`port` until SIGTERM/SIGINT.

    uvicorn gets the settings `MCPServer.run_streamable_http_async` gives it (its defaults, h11,
    `server` and `date` headers included); the socket is bound here so port 0 can be reported.
    """
    import socket

    import anyio
    import uvicorn

    app = factory.http_app(server, knobs, HOST)
    # IPPROTO_TCP named, as the socket uvicorn makes from host and port has it: asyncio turns Nagle's
    # algorithm off (TCP_NODELAY) only on sockets whose proto is IPPROTO_TCP, and without it a response
    # head and body sent apart wait for the client's delayed ACK (about 40 ms a call here).
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.bind((HOST, port))
    config = uvicorn.Config(app, host=HOST, port=port, log_level="warning", timeout_graceful_shutdown=3)
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
    here = os.path.dirname(os.path.abspath(__file__))
    if here not in sys.path:
        sys.path.insert(0, here)
    from knobs import KnobError, knobs_from_env

    try:
        knobs = knobs_from_env()
    except KnobError as e:
        usage_error(str(e))
        return
    try:
        import anyio

        factory = target_factory()
        server = factory.create_target_server(knobs)
    except Exception as e:  # start-up failure: one line, exit 1
        sys.stderr.write(f"{TARGET}: start-up failed: {type(e).__name__}: {e}\n")
        sys.stderr.flush()
        os._exit(1)
    if transport == "stdio":
        anyio.run(server.run_stdio_async)
    else:
        try:
            anyio.run(serve_http, factory, server, port, knobs)
        except OSError as e:  # the port cannot be bound: a start-up failure
            sys.stderr.write(f"{TARGET}: cannot listen on {HOST}:{port}: {e.strerror or e}\n")
            sys.stderr.flush()
            os._exit(1)
    try:
        sys.stdout.flush()
    except ValueError:  # the 1.x SDK's stdio transport closes stdout when stdin ends
        pass
    os._exit(0)


if __name__ == "__main__":
    main()
