"""A2A echo agent on the official Python SDK (`a2a-sdk`, A2A 1.0, JSON-RPC binding over Starlette),
served by uvicorn on its fast path (uvloop event loop, httptools HTTP parser).

Every `SendMessage` gets a completed task whose one artifact is a text part `Echo: <text>`, where
`<text>` is the concatenated text parts of the user message. `configuration.historyLength: 0` is
honoured by the SDK (no `history` in the response). Requests need header `A2A-Version: 1.0`.

Usage: `OUT/venv/bin/python targets/a2a-py/server.py --port N` — listens on 127.0.0.1:N (N=0: the
OS picks), JSON-RPC at path `/`, agent card at `/.well-known/agent-card.json`. Once accepting it
prints `listening on 127.0.0.1:PORT loop=uvloop http=httptools` on stderr. The task store is the
SDK's in-memory one (never evicts): start a fresh process per trial.

Exit status: 0 on SIGTERM/SIGINT; 2 on a bad argument, or when uvicorn did not select uvloop and
httptools (one line on stderr naming what is missing and the fix); 1 on any other start-up failure.
"""

from __future__ import annotations

import signal
import sys


def _exit_zero(signum: int, frame: object) -> None:
    """Signal handler: end the process with status 0."""
    raise SystemExit(0)


if __name__ == "__main__":
    # Installed before the SDK's imports (about a second): SIGTERM/SIGINT exit 0 from the first
    # moment. uvicorn later swaps in its own handlers and, after its graceful shutdown, re-raises
    # the caught signal under these.
    for _sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(_sig, _exit_zero)

import asyncio  # noqa: E402
import time  # noqa: E402

from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import (
    AgentCapabilities,
    AgentCard,
    AgentInterface,
    AgentSkill,
    Artifact,
    Part,
    Task,
    TaskState,
    TaskStatus,
)
from starlette.applications import Starlette
import uvicorn

HOST = "127.0.0.1"
USAGE = "usage: server.py --port N (0-65535; 0: the OS picks)"
REBUILD = "rebuild the target (pip install -r targets/a2a-py/requirements.txt)"


class UsageError(Exception):
    """A bad command-line argument; the message is one line naming the fix."""


class FastPathError(Exception):
    """uvicorn did not select uvloop and httptools; the message is one line naming the fix."""


def parse_port(argv: list[str]) -> int:
    """Parse `--port N` from `argv` (without the program name).

    Returns the port, 0-65535 (0: the OS picks).
    Raises UsageError when `--port` is missing, not a whole number, out of range, or when any
    other argument is present.
    """
    if len(argv) != 2 or argv[0] != "--port":
        raise UsageError(f"{USAGE}: got {' '.join(argv) or 'no arguments'}")
    raw = argv[1]
    if not raw.isascii() or not raw.isdigit() or int(raw) > 65535:
        raise UsageError(f"{USAGE}: --port {raw} is not a port number")
    return int(raw)


class EchoExecutor(AgentExecutor):
    """The echo agent: publishes one completed task whose one artifact is `Echo: <text>`."""

    def __init__(self) -> None:
        self._artifact_seq = 0

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Publish the completed task for `context`'s user message on `event_queue`.

        `<text>` is the user message's text parts joined with no separator.
        """
        self._artifact_seq += 1
        status = TaskStatus(state=TaskState.TASK_STATE_COMPLETED)
        # Millisecond precision, as the JS target's `new Date().toISOString()`.
        status.timestamp.FromMilliseconds(time.time_ns() // 1_000_000)
        task = Task(
            id=context.task_id,
            context_id=context.context_id,
            status=status,
            artifacts=[
                Artifact(
                    artifact_id=f"echo-{self._artifact_seq}",
                    name="echo",
                    parts=[Part(text=f"Echo: {context.get_user_input(delimiter='')}", media_type="text/plain")],
                )
            ],
            history=[context.message] if context.message is not None else [],
        )
        await event_queue.enqueue_event(task)

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Nothing to cancel: `execute` finishes the task at once."""


def agent_card(port: int) -> AgentCard:
    """The agent card served at `/.well-known/agent-card.json` (not used by the timing flows).

    `port` is the port named in the card's one interface URL.
    """
    return AgentCard(
        name="wirecost echo",
        description="Echoes the text of each message as a completed task artifact.",
        supported_interfaces=[
            AgentInterface(url=f"http://{HOST}:{port}/", protocol_binding="JSONRPC", protocol_version="1.0")
        ],
        version="1.0.0",
        capabilities=AgentCapabilities(streaming=False, push_notifications=False),
        default_input_modes=["text/plain"],
        default_output_modes=["text/plain"],
        # One skill: the spec requires a non-empty list (the SDK warns at start-up otherwise).
        skills=[AgentSkill(id="echo", name="echo", description="Replies Echo: <text>.", tags=["echo"])],
    )


def build_app(port: int) -> Starlette:
    """The ASGI app: the SDK's JSON-RPC route at `/` and its agent-card route, over Starlette.

    `port` is the port named in the agent card.
    """
    card = agent_card(port)
    handler = DefaultRequestHandler(agent_executor=EchoExecutor(), task_store=InMemoryTaskStore(), agent_card=card)
    return Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/")])


def _missing(module: str) -> str | None:
    """Why `module` cannot be imported (the ImportError's text), or None when it can."""
    try:
        __import__(module)
    except ImportError as exc:
        return str(exc) or type(exc).__name__
    return None


def protocol_name(protocol_class: type) -> str:
    """Short name of a uvicorn HTTP protocol class: `httptools`, `h11`, or the class's dotted name."""
    module = protocol_class.__module__
    if module.startswith("uvicorn.protocols.http.") and module.endswith("_impl"):
        return module.removeprefix("uvicorn.protocols.http.").removesuffix("_impl")
    return f"{module}.{protocol_class.__qualname__}"


def loop_name(loop: asyncio.AbstractEventLoop) -> str:
    """Short name of a running event loop's implementation: `uvloop`, `asyncio`, or its module."""
    return type(loop).__module__.split(".")[0]


def check_fast_path(config: uvicorn.Config) -> None:
    """Load `config` and check that uvicorn selected httptools and uvloop.

    Raises FastPathError (one line: what is missing and the fix) when the HTTP protocol class
    uvicorn chose is not httptools' or its loop factory is not uvloop's.
    """
    if not config.loaded:
        config.load()
    chosen_http = protocol_name(config.http_protocol_class)
    if chosen_http != "httptools":
        why = _missing("httptools")
        if why is not None:
            raise FastPathError(
                f"httptools is not installed ({why}): the A2A Python target runs only on uvicorn's fast path — {REBUILD}"
            )
        raise FastPathError(
            f"uvicorn selected HTTP protocol {chosen_http}, not httptools: the A2A Python target runs only on uvicorn's fast path — {REBUILD}"
        )
    factory = config.get_loop_factory()
    why = _missing("uvloop")
    if why is not None:
        raise FastPathError(
            f"uvloop is not installed ({why}): the A2A Python target runs only on uvicorn's fast path — {REBUILD}"
        )
    import uvloop

    if factory is not uvloop.new_event_loop:
        raise FastPathError(
            f"uvicorn selected loop factory {factory!r}, not uvloop's: the A2A Python target runs only on uvicorn's fast path — {REBUILD}"
        )


class EchoServer(uvicorn.Server):
    """uvicorn's Server that prints the `listening on` line once its socket accepts connections."""

    async def startup(self, sockets=None) -> None:
        """Start as uvicorn does, then check the running loop and print the listening line.

        Raises SystemExit(2) when the running loop is not uvloop's (the refusal line on stderr).
        """
        await super().startup(sockets=sockets)
        if not self.started:
            return
        loop = loop_name(asyncio.get_running_loop())
        if loop != "uvloop":
            print(f"the running event loop is {loop}, not uvloop: the A2A Python target runs only on uvicorn's fast path — {REBUILD}", file=sys.stderr, flush=True)
            raise SystemExit(2)
        port = self.servers[0].sockets[0].getsockname()[1]
        http = protocol_name(self.config.http_protocol_class)
        print(f"listening on {HOST}:{port} loop={loop} http={http}", file=sys.stderr, flush=True)


def main(argv: list[str]) -> int:
    """Run the server until SIGTERM/SIGINT. Returns the exit status (see the module docstring)."""
    try:
        port = parse_port(argv)
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    config = uvicorn.Config(build_app(port), host=HOST, port=port, log_level="warning", loop="auto", http="auto")
    try:
        check_fast_path(config)
    except FastPathError as exc:
        print(exc, file=sys.stderr)
        return 2
    server = EchoServer(config)
    try:
        server.run()
    except SystemExit as exc:
        # uvicorn exits 3 on a start-up failure (e.g. the port is taken); the contract says 1.
        return exc.code if exc.code in (0, 2) else 0 if exc.code is None else 1
    return 0 if server.started else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
