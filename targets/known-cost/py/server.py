"""wirecost test target with known costs (Python; the profile-window contract of issue 25, README
"How to read a stage table"): a minimal MCP server over stdio (newline-delimited JSON-RPC 2.0) and
Streamable HTTP (POST /mcp answered with application/json, 127.0.0.1 only) on the standard library,
whose every `tools/call` runs, in this order, `parse_and_validate` (1,500 µs), `do_work` (1,000 µs)
and `build_result` (500 µs) of thread CPU time (`time.thread_time_ns`), overridable by
`WIRECOST_KNOWN_COSTS=parse_and_validate=1500,do_work=1000,build_result=500` (µs), so the stage
attribution is tested against a known answer (test/attribution/known-cost.test.ts). It is sampled
from outside (py-spy by pid).

    python targets/known-cost/py/server.py --transport stdio
    python targets/known-cost/py/server.py --transport http --port N

Exit status: 0 at end of stdin or on SIGTERM, 2 on bad arguments or a bad WIRECOST_KNOWN_COSTS.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time
from http.server import BaseHTTPRequestHandler, HTTPServer
from typing import Any

NAME = "known-cost-py"
REVISIONS = ("2025-06-18", "2025-11-25")
USAGE = "usage: server.py --transport stdio | --transport http [--port N]"
COSTS = {"parse_and_validate": 1500, "do_work": 1000, "build_result": 500}
TOOLS = [
    {
        "name": "search_tickets",
        "description": "Search tickets (known cost).",
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["query"]},
    },
    {
        "name": "get_tickets",
        "description": "Get tickets by id (known cost).",
        "inputSchema": {"type": "object", "properties": {"ids": {"type": "array", "items": {"type": "integer"}}}, "required": ["ids"]},
    },
]


def usage(message: str) -> None:
    """Print the message and the usage line, exit 2."""
    sys.stderr.write(f"{NAME}: {message}\n{USAGE}\n")
    sys.exit(2)


def costs_from_env(raw: str) -> dict[str, int]:
    """The costs (µs) from WIRECOST_KNOWN_COSTS, defaults for names it does not give; exits 2 on a bad item."""
    costs = dict(COSTS)
    for item in filter(None, raw.split(",")):
        k, _, v = item.partition("=")
        if k not in costs or not v.isdigit():
            usage(f'WIRECOST_KNOWN_COSTS item "{item}": use name=µs with names {", ".join(costs)}')
        costs[k] = int(v)
    return costs


def spin(us: int) -> None:
    """Spin until `us` µs of this thread's CPU time have passed (arithmetic between clock reads)."""
    clock = time.thread_time_ns
    end = clock() + us * 1000
    x = 0
    while clock() < end:
        for i in range(500):
            x = (x * 31 + i) % 1000003


def parse_and_validate(costs: dict[str, int]) -> None:
    spin(costs["parse_and_validate"])


def do_work(costs: dict[str, int]) -> None:
    spin(costs["do_work"])


def build_result(costs: dict[str, int]) -> None:
    spin(costs["build_result"])


def answer(msg: dict[str, Any], costs: dict[str, int]) -> dict[str, Any] | None:
    """The answer to one JSON-RPC message, or None for a notification."""
    if "id" not in msg:
        return None
    method = msg.get("method")
    params = msg.get("params") or {}

    def ok(result: dict[str, Any]) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": msg["id"], "result": result}

    if method == "initialize":
        asked = str(params.get("protocolVersion", ""))
        return ok({"protocolVersion": asked if asked in REVISIONS else REVISIONS[-1], "capabilities": {"tools": {}}, "serverInfo": {"name": NAME, "version": "1"}})
    if method == "ping":
        return ok({})
    if method == "tools/list":
        return ok({"tools": TOOLS})
    if method == "tools/call":
        parse_and_validate(costs)
        do_work(costs)
        build_result(costs)
        total = costs["parse_and_validate"] + costs["do_work"] + costs["build_result"]
        return ok({"content": [{"type": "text", "text": f"known cost: {total} µs"}]})
    return {"jsonrpc": "2.0", "id": msg["id"], "error": {"code": -32601, "message": f"method not found: {method}"}}


def handle(text: str, costs: dict[str, int]) -> str | None:
    """One message's text -> the answer's text, or None."""
    try:
        msg = json.loads(text)
    except ValueError:
        return json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "parse error"}})
    a = answer(msg, costs)
    return None if a is None else json.dumps(a)


def serve_stdio(costs: dict[str, int]) -> None:
    """Answer newline-delimited JSON-RPC on stdin/stdout until end of stdin."""
    while True:
        line = wait_for_request()
        if line == "":
            return
        if not line.strip():
            continue
        out = handle(line, costs)
        if out is not None:
            write_answer(out)


def wait_for_request() -> str:
    """The next line of stdin ("" at its end): where the server waits, off-CPU (its stage rules call it idle)."""
    return sys.stdin.readline()


def write_answer(text: str) -> None:
    """Write one answer line to stdout and flush it."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def serve_http(port: int, costs: dict[str, int]) -> None:
    """Answer POST /mcp on 127.0.0.1:port with application/json (HTTP/1.1 keep-alive)."""

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
            if self.path != "/mcp":
                self.send_response(404)
                self.send_header("Content-Length", "0")
                self.end_headers()
                return
            out = handle(body.decode("utf-8"), costs)
            data = b"" if out is None else out.encode("utf-8")
            self.send_response(202 if out is None else 200)
            if out is not None:
                self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

    server = HTTPServer(("127.0.0.1", port), Handler)
    sys.stderr.write(f"listening on 127.0.0.1:{server.server_address[1]}\n")
    sys.stderr.flush()
    server.serve_forever()


def main(argv: list[str]) -> None:
    """Parse `--transport stdio | --transport http [--port N]` and serve."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    costs = costs_from_env(os.environ.get("WIRECOST_KNOWN_COSTS", ""))
    if argv[:2] == ["--transport", "stdio"] and len(argv) == 2:
        serve_stdio(costs)
    elif argv[:2] == ["--transport", "http"] and (len(argv) == 2 or (len(argv) == 4 and argv[2] == "--port" and argv[3].isdigit())):
        serve_http(int(argv[3]) if len(argv) == 4 else 0, costs)
    else:
        usage(f"bad arguments: {' '.join(argv) or '(none)'}")


if __name__ == "__main__":
    main(sys.argv[1:])
