"""Per-call harness in Python for wirecost's per-call report (README "Per-call harnesses in other
languages"): times `search_tickets` the way the published write-up did, inside Python.

    OUT/venv/bin/python targets/mcp-py/percall_harness.py --path direct
    OUT/venv/bin/python targets/mcp-py/percall_harness.py --path sdk     # WIRECOST_TRANSPORT=stdio|http

Another server (harness protocol, README "Per-call harnesses in other languages"): wirecost runs
this harness as a client declared under `clients:` against another target's server with

    percall_harness.py --path sdk -- SERVER ARGV...      # WIRECOST_TRANSPORT=stdio: started as the child here
    percall_harness.py --path sdk --url http://127.0.0.1:PORT/mcp   # WIRECOST_TRANSPORT=http: started by wirecost

and everything below is the same, except that against a `--url` the output has no `setup` (this
process did not start the server) and the profile window reports no server pid.

`--path direct` calls `tickets.search_tickets(conn, query, limit)` in this process (standard
library only). `--path sdk` starts server.py (beside this file, with this interpreter,
`WIRECOST_WORKLOAD=tickets`): over stdio as a child through the SDK's own `stdio_client`; over
Streamable HTTP as a child listening on 127.0.0.1 (a port the OS picks, read from its `listening
on` line) through the SDK's own `streamable_http_client`. It opens a `ClientSession` (2025-11-25:
`initialize`; 2026-07-28: `discover`), lists the tools, makes one call and discards it, then times
`session.call_tool("search_tickets", ...)`. `--path sdk-stdio` is `--path sdk` over stdio.

Both paths discard the first call and `WIRECOST_WARMUP_CALLS` more, then time `WIRECOST_CALLS`
calls one at a time with `time.perf_counter_ns`, and print one JSON object on stdout:

    {"wirecostHarness": 1, "samplesUs": [...], "resultBytes": N,
     "setup": {"readyMs": ..., "openMs": ..., "listedMs": ..., "firstCallMs": ...},   # sdk-stdio only
     "runtime": {"name": "python", "version": "3.11.7"},
     "sdk": {"name": "mcp", "version": "2.2.0"},                                      # sdk-stdio only
     "protocolVersion": "2025-11-25",                                                  # sdk-stdio only
     "cpuPerCallUs": 812.4,
     "loops": [{"sequentialMs": ..., "concurrentMs": ..., "batchMs": ...}, ...],     # when asked
     "payload": [{"limit": 2, "resultBytes": N, "samplesUs": [...]}, ...]}           # when asked

Loops (when WIRECOST_LOOP_IDS is set): after the timed calls, WIRECOST_LOOP_REPEATS + 1 repeats (the
first discarded) of: `get_tickets` of each id one at a time (sequential), all of them at once on the
one session (concurrent: one task each; in-process, one after another, as there is nothing to
overlap), and once with every id (batch); milliseconds. Payload sweep (when WIRECOST_PAYLOAD_LIMITS
is set): per limit, one discarded call then WIRECOST_PAYLOAD_CALLS timed calls of `search_tickets`
at that limit, with the result text's bytes.

`cpuPerCallUs` is this process's CPU time (`time.process_time_ns`, user + system; the server is a
child process and not in it) over the timed calls, divided by their count.

Profile window (harness protocol 1, optional; README "Per-call harnesses in other languages"): when
WIRECOST_PROFILE_WINDOW=<folder> is set, after the warm-up calls the harness writes
`<folder>/ready.json` = {"wirecostWindow": 1, "clientPid": <its pid>, "serverPid": <its server's pid,
or absent for direct>} and waits until `<folder>/go` exists (wirecost has attached its samplers and
read both processes' CPU clocks); it then times the calls as usual, writes `<folder>/end.json` =
{"windowNs": <wall time of the timed calls>, "calls": N} and waits until `<folder>/release` exists
before going on. Check (b)'s like-with-like reference: the same N calls are timed unprofiled just
before `ready.json` and just after `release`, and `<folder>/reference.json` = {"beforeNs": ...,
"afterNs": ..., "calls": N} is written. Without the variable nothing of this happens.

Environment (set by wirecost): WIRECOST_TICKETS_DB, WIRECOST_QUERY, WIRECOST_LIMIT, WIRECOST_CALLS,
WIRECOST_WARMUP_CALLS, WIRECOST_REVISION, WIRECOST_TRANSPORT (in-process for direct, stdio or http for
sdk), and optionally WIRECOST_LOOP_IDS, WIRECOST_LOOP_REPEATS, WIRECOST_PAYLOAD_LIMITS,
WIRECOST_PAYLOAD_CALLS. Every WIRECOST_* variable is passed on to the server, as wirecost passes its axes.
Exit status: 0 with the JSON printed; 2 on a bad argument or variable (one line naming it);
1 when the measurement fails (one line on stderr; nothing on stdout).
"""

from __future__ import annotations

import json
import os
import platform
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

sys.dont_write_bytecode = True  # leave no __pycache__ beside the target's sources
HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import tickets  # noqa: E402  (standard library only)

PROTOCOL = 1
PATHS = {"direct": ("in-process",), "sdk": ("stdio", "http"), "sdk-stdio": ("stdio",)}
USAGE = (
    "usage: percall_harness.py --path direct | --path sdk (WIRECOST_TRANSPORT=stdio|http) | --path sdk-stdio;"
    " another server: --path sdk -- SERVER ARGV... (stdio) | --path sdk --url http://127.0.0.1:PORT/PATH (http)"
)
SERVER_START_S = 30.0


class UsageError(Exception):
    """A bad argument or environment variable: exit 2."""


@dataclass(frozen=True)
class Settings:
    """What wirecost asks for, from the environment."""

    db: str
    query: str
    limit: int
    calls: int
    warmup_calls: int
    revision: str
    transport: str
    loop_ids: list[int]
    loop_repeats: int
    payload_limits: list[int]
    payload_calls: int


@dataclass(frozen=True)
class Server:
    """Another server to drive (harness protocol, "Another server"): its stdio command, or the URL of
    the HTTP server wirecost started; both empty: server.py beside this file, started here."""

    argv: list[str]
    url: str


def parse_path(argv: list[str]) -> tuple[str, Server]:
    """`--path direct|sdk|sdk-stdio` (or `--path=...`), then for sdk optionally `-- SERVER ARGV...` or
    `--url URL` -> the path name and the server to drive. @raises UsageError"""
    if argv and argv[0].startswith("--path="):
        argv = ["--path", argv[0].split("=", 1)[1], *argv[1:]]
    if len(argv) < 2 or argv[0] != "--path":
        raise UsageError(f"expected --path PATH ({USAGE}), got {' '.join(argv) or 'nothing'}")
    if argv[1] not in PATHS:
        raise UsageError(f'unknown path "{argv[1]}": use one of {", ".join(PATHS)}')
    rest = argv[2:]
    server = Server(argv=[], url="")
    if rest[:1] == ["--"] and len(rest) > 1:
        server = Server(argv=rest[1:], url="")
    elif len(rest) == 2 and rest[0] == "--url" and rest[1].startswith("http://127.0.0.1:"):
        server = Server(argv=[], url=rest[1])
    elif rest:
        raise UsageError(f"unexpected {' '.join(rest)!r} ({USAGE}); a --url must be http://127.0.0.1:PORT/PATH")
    if (server.argv or server.url) and argv[1] != "sdk":
        raise UsageError(f"--path {argv[1]} takes no server: another server is for --path sdk")
    return argv[1], server


def whole(env: dict[str, str], name: str, low: int) -> int:
    """The whole number in `env[name]`, at least `low`. @raises UsageError naming the variable"""
    raw = env.get(name, "")
    if not raw.isascii() or not raw.isdigit() or int(raw) < low:
        raise UsageError(f"{name}={raw!r} is not a whole number >= {low}: wirecost sets it from timing: in the matrix")
    return int(raw)


def whole_list(env: dict[str, str], name: str) -> list[int]:
    """The comma-separated whole numbers (each >= 1) in `env[name]`; [] when unset. @raises UsageError naming the variable"""
    raw = env.get(name, "")
    if raw == "":
        return []
    items = raw.split(",")
    if not all(x.isascii() and x.isdigit() and int(x) >= 1 for x in items):
        raise UsageError(f"{name}={raw!r} is not a comma-separated list of whole numbers >= 1: wirecost sets it from timing: in the matrix")
    return [int(x) for x in items]


def read_settings(path: str, env: dict[str, str], server: Server) -> Settings:
    """Read and check the variables wirecost sets. @raises UsageError naming the variable and the fix"""
    transport = env.get("WIRECOST_TRANSPORT", "") or PATHS[path][0]
    if transport not in PATHS[path]:
        raise UsageError(f"WIRECOST_TRANSPORT={transport} but --path {path} measures {' or '.join(PATHS[path])}: fix the target's harness transport or its --path")
    if (server.argv and transport != "stdio") or (server.url and transport != "http"):
        given = "a server command (--)" if server.argv else "--url"
        raise UsageError(f"WIRECOST_TRANSPORT={transport} but the harness was given {given}: a stdio client takes the server's command, an http client its --url")
    for name in ("WIRECOST_TICKETS_DB", "WIRECOST_QUERY"):
        if env.get(name, "") == "":
            raise UsageError(f"{name} is not set: run this harness through wirecost run (it sets it)")
    return Settings(
        db=env["WIRECOST_TICKETS_DB"],
        query=env["WIRECOST_QUERY"],
        limit=whole(env, "WIRECOST_LIMIT", 1),
        calls=whole(env, "WIRECOST_CALLS", 0),
        warmup_calls=whole(env, "WIRECOST_WARMUP_CALLS", 0),
        revision=env.get("WIRECOST_REVISION", ""),
        transport=transport,
        loop_ids=whole_list(env, "WIRECOST_LOOP_IDS"),
        loop_repeats=whole(env, "WIRECOST_LOOP_REPEATS", 1) if env.get("WIRECOST_LOOP_IDS") else 0,
        payload_limits=whole_list(env, "WIRECOST_PAYLOAD_LIMITS"),
        payload_calls=whole(env, "WIRECOST_PAYLOAD_CALLS", 1) if env.get("WIRECOST_PAYLOAD_LIMITS") else 0,
    )


WINDOW_WAIT_S = 120.0


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write `data` as JSON to `path` atomically (a .tmp file renamed)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(data))
    os.replace(tmp, path)


def _wait_for(path: Path) -> None:
    """Poll every millisecond until `path` exists. @raises RuntimeError after WINDOW_WAIT_S"""
    deadline = time.monotonic() + WINDOW_WAIT_S
    while not path.exists():
        if time.monotonic() > deadline:
            raise RuntimeError(f"profile window: {path} did not appear within {WINDOW_WAIT_S:.0f} s")
        time.sleep(0.001)


def child_pids() -> list[int]:
    """Pids of this process's children (/proc/self/task/*/children, Linux)."""
    pids: list[int] = []
    for task in Path("/proc/self/task").iterdir():
        try:
            pids += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return pids


class ProfileWindow:
    """The profile window of WIRECOST_PROFILE_WINDOW (see the module's head); a no-op without it."""

    def __init__(self, env: dict[str, str]) -> None:
        raw = env.get("WIRECOST_PROFILE_WINDOW", "")
        self.folder = Path(raw) if raw else None

    def open(self, with_server: bool) -> None:
        """Report the pids and wait for wirecost's go."""
        if self.folder is None:
            return
        ready: dict[str, Any] = {"wirecostWindow": 1, "clientPid": os.getpid()}
        if with_server:
            kids = child_pids()
            if len(kids) != 1:
                raise RuntimeError(f"profile window: expected one server child process, found {len(kids)}")
            ready["serverPid"] = kids[0]
        _write_json(self.folder / "ready.json", ready)
        _wait_for(self.folder / "go")

    def close(self, window_ns: int, calls: int) -> None:
        """Report the window's wall time and wait for wirecost's release."""
        if self.folder is None:
            return
        _write_json(self.folder / "end.json", {"windowNs": window_ns, "calls": calls})
        _wait_for(self.folder / "release")

    @property
    def active(self) -> bool:
        """Whether the window is asked for (the reference windows run only then)."""
        return self.folder is not None

    def reference(self, before_ns: int, after_ns: int, calls: int) -> None:
        """Report the wall time of the unprofiled windows before and after the profiled one."""
        if self.folder is None:
            return
        _write_json(self.folder / "reference.json", {"beforeNs": before_ns, "afterNs": after_ns, "calls": calls})


def ms_since(t0: int) -> float:
    """Milliseconds from `t0` (a perf_counter_ns reading) to now."""
    return (time.perf_counter_ns() - t0) / 1e6


def runtime() -> dict[str, str]:
    """This interpreter: name (`python` for CPython, else the implementation, e.g. `pypy`) and version."""
    impl = platform.python_implementation()
    return {"name": "python" if impl == "CPython" else impl.lower(), "version": platform.python_version()}


def measure_direct(s: Settings) -> dict[str, Any]:
    """Time `search_tickets(conn, query, limit)` in this process; the rows are not serialised (as the
    direct call in the write-up, and wirecost's own direct path)."""
    conn = tickets.open_tickets(s.db)
    try:
        rows = tickets.search_tickets(conn, s.query, s.limit)  # the first call, discarded
        result_bytes = len(tickets.tickets_text(rows).encode("utf-8"))
        for _ in range(s.warmup_calls):
            tickets.search_tickets(conn, s.query, s.limit)
        samples: list[float] = []
        search, clock, q, n = tickets.search_tickets, time.perf_counter_ns, s.query, s.limit
        window = ProfileWindow(dict(os.environ))

        def plain_window() -> int:
            w0 = clock()
            for _ in range(s.calls):
                search(conn, q, n)
            return clock() - w0

        before = plain_window() if window.active else 0
        window.open(with_server=False)
        cpu0 = time.process_time_ns()
        w0 = clock()
        for _ in range(s.calls):
            t = clock()
            search(conn, q, n)
            samples.append((clock() - t) / 1000)
        window_ns = clock() - w0
        cpu = time.process_time_ns() - cpu0
        window.close(window_ns, s.calls)
        if window.active:
            window.reference(before, plain_window(), s.calls)
        extra = direct_loops_and_payload(conn, s)
    finally:
        conn.close()
    return {
        "wirecostHarness": PROTOCOL,
        "samplesUs": samples,
        "resultBytes": result_bytes,
        "runtime": runtime(),
        "cpuPerCallUs": cpu / 1000 / s.calls,
        **extra,
    }


def direct_loops_and_payload(conn: Any, s: Settings) -> dict[str, Any]:
    """The loops and the payload sweep in this process, as asked (see the module's head)."""
    out: dict[str, Any] = {}
    if s.loop_ids:
        loops = []
        for r in range(s.loop_repeats + 1):
            t = time.perf_counter_ns()
            for i in s.loop_ids:
                tickets.get_tickets(conn, [i])
            sequential = ms_since(t)
            t = time.perf_counter_ns()
            for i in s.loop_ids:  # nothing to overlap in one thread: the same calls, one after another
                tickets.get_tickets(conn, [i])
            concurrent = ms_since(t)
            t = time.perf_counter_ns()
            tickets.get_tickets(conn, s.loop_ids)
            batch = ms_since(t)
            if r > 0:
                loops.append({"sequentialMs": sequential, "concurrentMs": concurrent, "batchMs": batch})
        out["loops"] = loops
    if s.payload_limits:
        points = []
        for limit in s.payload_limits:
            rows = tickets.search_tickets(conn, s.query, limit)  # discarded
            samples = []
            for _ in range(s.payload_calls):
                t = time.perf_counter_ns()
                tickets.search_tickets(conn, s.query, limit)
                samples.append((time.perf_counter_ns() - t) / 1000)
            points.append({"limit": limit, "resultBytes": len(tickets.tickets_text(rows).encode("utf-8")), "samplesUs": samples})
        out["payload"] = points
    return out


def result_text(result: Any) -> str:
    """The text of a search_tickets result. @raises RuntimeError on a tool error or another shape"""
    if result.is_error:
        raise RuntimeError(f"search_tickets answered a tool error: {result.content!r:.200}")
    first = result.content[0] if result.content else None
    if getattr(first, "type", None) != "text":
        raise RuntimeError(f"search_tickets answered no text content: {result.content!r:.200}")
    return first.text


class HttpServer:
    """server.py over Streamable HTTP as a child of this process, on 127.0.0.1 at a port the OS picks."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(HERE / "server.py"), "--transport", "http", "--port", "0"],
            env={**os.environ, **env},
            cwd=str(HERE),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
        )
        self.port: int | None = None
        self._listening = threading.Event()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self) -> None:
        """Read the server's stderr: the `listening on 127.0.0.1:PORT` line, every line passed on to ours."""
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            if self.port is None and line.startswith("listening on 127.0.0.1:"):
                self.port = int(line.rsplit(":", 1)[1])
                self._listening.set()
            sys.stderr.write(line)
        self._listening.set()  # ended without listening: wait_listening says so

    def wait_listening(self) -> str:
        """The endpoint URL once the server listens. @raises RuntimeError when it exits or is silent for SERVER_START_S"""
        if not self._listening.wait(SERVER_START_S) or self.port is None:
            raise RuntimeError(f"server.py --transport http did not say it listens within {SERVER_START_S:.0f} s (exit status {self.proc.poll()})")
        return f"http://127.0.0.1:{self.port}/mcp"

    def stop(self) -> None:
        """SIGTERM, then SIGKILL after 5 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


async def sdk_loops_and_payload(session: Any, s: Settings) -> dict[str, Any]:
    """The loops and the payload sweep through the session, as asked (see the module's head)."""
    import anyio

    out: dict[str, Any] = {}

    async def get(ids: list[int]) -> None:
        r = await session.call_tool("get_tickets", {"ids": ids})
        if r.is_error:
            raise RuntimeError(f"get_tickets answered a tool error: {r.content!r:.200}")

    if s.loop_ids:
        loops = []
        for r in range(s.loop_repeats + 1):
            t = time.perf_counter_ns()
            for i in s.loop_ids:
                await get([i])
            sequential = ms_since(t)
            t = time.perf_counter_ns()
            async with anyio.create_task_group() as tg:
                for i in s.loop_ids:
                    tg.start_soon(get, [i])
            concurrent = ms_since(t)
            t = time.perf_counter_ns()
            await get(s.loop_ids)
            batch = ms_since(t)
            if r > 0:
                loops.append({"sequentialMs": sequential, "concurrentMs": concurrent, "batchMs": batch})
        out["loops"] = loops
    if s.payload_limits:
        points = []
        for limit in s.payload_limits:
            arguments = {"query": s.query, "limit": limit}
            first = result_text(await session.call_tool("search_tickets", arguments))  # discarded
            samples = []
            for _ in range(s.payload_calls):
                t = time.perf_counter_ns()
                result_text(await session.call_tool("search_tickets", arguments))
                samples.append((time.perf_counter_ns() - t) / 1000)
            points.append({"limit": limit, "resultBytes": len(first.encode("utf-8")), "samplesUs": samples})
        out["payload"] = points
    return out


async def measure_sdk(s: Settings, given: Server) -> dict[str, Any]:
    """Time `session.call_tool("search_tickets", ...)` through the SDK's client of `s.transport` against
    server.py, or against the server `given` (its stdio command, started here as server.py would be,
    in this process's working folder; or the URL of an HTTP server wirecost started).

    Setup phases are milliseconds from before the spawn: ready (stdio: the child started and the
    streams are up; HTTP: the server said it listens), open (initialize answered and
    notifications/initialized sent, or discover answered on 2026-07-28), listed (tools/list
    answered), first call answered. Against a `given.url` there is no setup to report (this process
    did not start the server): the output leaves `setup` out.
    """
    from contextlib import AsyncExitStack
    from importlib.metadata import version

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client

    if s.revision not in ("2025-11-25", "2026-07-28"):
        raise UsageError(f"WIRECOST_REVISION={s.revision!r}: this harness opens 2025-11-25 (initialize) or 2026-07-28 (discover) sessions; fix the target's revisions")
    env = {k: v for k, v in os.environ.items() if k.startswith("WIRECOST_")}
    env.update({"WIRECOST_WORKLOAD": "tickets", "WIRECOST_TICKETS_DB": s.db})
    arguments = {"query": s.query, "limit": s.limit}
    http: HttpServer | None = None
    t0 = time.perf_counter_ns()
    try:
        async with AsyncExitStack() as stack:
            if given.url:
                read, write = await stack.enter_async_context(streamable_http_client(given.url))
            elif s.transport == "http":
                http = HttpServer(env)
                url = await anyio_to_thread(http.wait_listening)
                read, write = await stack.enter_async_context(streamable_http_client(url))
            elif given.argv:
                server = StdioServerParameters(command=given.argv[0], args=given.argv[1:], env=env, cwd=os.getcwd())
                read, write = await stack.enter_async_context(stdio_client(server))
            else:
                server = StdioServerParameters(command=sys.executable, args=[str(HERE / "server.py"), "--transport", "stdio"], env=env, cwd=str(HERE))
                read, write = await stack.enter_async_context(stdio_client(server))
            ready = ms_since(t0)
            session = await stack.enter_async_context(ClientSession(read, write))
            if s.revision == "2026-07-28":
                await session.discover()
            else:
                await session.initialize()
            opened = ms_since(t0)
            if session.protocol_version != s.revision:
                raise RuntimeError(f"the session negotiated {session.protocol_version}, not {s.revision}")
            tools = await session.list_tools()
            listed = ms_since(t0)
            if "search_tickets" not in [t.name for t in tools.tools]:
                raise RuntimeError("the server lists no search_tickets tool: is WIRECOST_WORKLOAD=tickets reaching it?")
            first = result_text(await session.call_tool("search_tickets", arguments))  # discarded
            first_call = ms_since(t0)
            for _ in range(s.warmup_calls):
                result_text(await session.call_tool("search_tickets", arguments))
            samples: list[float] = []
            call, clock = session.call_tool, time.perf_counter_ns
            errors = 0
            window = ProfileWindow(dict(os.environ))

            async def plain_window() -> int:
                w0 = clock()
                for _ in range(s.calls):
                    await call("search_tickets", arguments)
                return clock() - w0

            before = await plain_window() if window.active else 0
            window.open(with_server=not given.url)
            cpu0 = time.process_time_ns()
            w0 = clock()
            for _ in range(s.calls):
                t = clock()
                r = await call("search_tickets", arguments)
                samples.append((clock() - t) / 1000)
                errors += bool(r.is_error)
            window_ns = clock() - w0
            cpu = time.process_time_ns() - cpu0
            window.close(window_ns, s.calls)
            if window.active:
                window.reference(before, await plain_window(), s.calls)
            if errors:
                raise RuntimeError(f"{errors} of {s.calls} timed calls answered a tool error")
            negotiated = session.protocol_version
            extra = await sdk_loops_and_payload(session, s)
    finally:
        if http is not None:
            http.stop()
    setup = {"readyMs": ready, "openMs": opened, "listedMs": listed, "firstCallMs": first_call}
    return {
        "wirecostHarness": PROTOCOL,
        "samplesUs": samples,
        "resultBytes": len(first.encode("utf-8")),
        **({} if given.url else {"setup": setup}),
        "runtime": runtime(),
        "sdk": {"name": "mcp", "version": version("mcp")},
        "protocolVersion": negotiated,
        "cpuPerCallUs": cpu / 1000 / s.calls,
        **extra,
    }


async def anyio_to_thread(fn: Callable[[], Any]) -> Any:
    """Run a blocking `fn` on a worker thread (the event loop goes on)."""
    import anyio.to_thread

    return await anyio.to_thread.run_sync(fn)


def main(argv: list[str]) -> int:
    """Measure the path `argv` names and print the JSON; returns the exit status."""
    try:
        path, server = parse_path(argv)
        settings = read_settings(path, dict(os.environ), server)
        if path == "direct":
            out = measure_direct(settings)
        else:
            import anyio

            run: Callable[[], Any] = lambda: measure_sdk(settings, server)  # noqa: E731
            out = anyio.run(run)
    except UsageError as e:
        sys.stderr.write(f"percall_harness: {e}\n")
        return 2
    except Exception as e:  # one line naming what failed; wirecost records it as the path's failure
        while isinstance(e, BaseExceptionGroup) and e.exceptions:  # anyio task groups wrap the cause
            e = e.exceptions[0]
        if isinstance(e, UsageError):
            sys.stderr.write(f"percall_harness: {e}\n")
            return 2
        sys.stderr.write(f"percall_harness: {type(e).__name__}: {' '.join(str(e).split())}\n")
        return 1
    sys.stdout.write(json.dumps(out, allow_nan=False, separators=(",", ":")) + "\n")
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
