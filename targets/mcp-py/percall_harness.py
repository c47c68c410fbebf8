"""Per-call harness in Python for wirecost's per-call report (README "Per-call harnesses in other
languages"): times `search_tickets` the way the published write-up did, inside Python.

    OUT/venv/bin/python targets/mcp-py/percall_harness.py --path direct
    OUT/venv/bin/python targets/mcp-py/percall_harness.py --path sdk-stdio

`--path direct` calls `tickets.search_tickets(conn, query, limit)` in this process (standard
library only). `--path sdk-stdio` starts server.py (beside this file, with this interpreter,
`WIRECOST_WORKLOAD=tickets`) as a child through the SDK's own `stdio_client`, opens a
`ClientSession` (2025-11-25: `initialize`; 2026-07-28: `discover`), lists the tools, makes one call
and discards it, then times `session.call_tool("search_tickets", ...)`.

Both paths discard the first call and `WIRECOST_WARMUP_CALLS` more, then time `WIRECOST_CALLS`
calls one at a time with `time.perf_counter_ns`, and print one JSON object on stdout:

    {"wirecostHarness": 1, "samplesUs": [...], "resultBytes": N,
     "setup": {"readyMs": ..., "openMs": ..., "listedMs": ..., "firstCallMs": ...},   # sdk-stdio only
     "runtime": {"name": "python", "version": "3.11.7"},
     "sdk": {"name": "mcp", "version": "2.2.0"},                                      # sdk-stdio only
     "protocolVersion": "2025-11-25",                                                  # sdk-stdio only
     "cpuPerCallUs": 812.4}

`cpuPerCallUs` is this process's CPU time (`time.process_time_ns`, user + system; the server is a
child process and not in it) over the timed calls, divided by their count.

Profile window (harness protocol 1, optional; README "Per-call harnesses in other languages"): when
WIRECOST_PROFILE_WINDOW=<folder> is set, after the warm-up calls the harness writes
`<folder>/ready.json` = {"wirecostWindow": 1, "clientPid": <its pid>, "serverPid": <its server's pid,
or absent for direct>} and waits until `<folder>/go` exists (wirecost has attached its samplers and
read both processes' CPU clocks); it then times the calls as usual, writes `<folder>/end.json` =
{"windowNs": <wall time of the timed calls>, "calls": N} and waits until `<folder>/release` exists
before going on. Without the variable nothing of this happens.

Environment (set by wirecost): WIRECOST_TICKETS_DB, WIRECOST_QUERY, WIRECOST_LIMIT, WIRECOST_CALLS,
WIRECOST_WARMUP_CALLS, WIRECOST_REVISION, WIRECOST_TRANSPORT (in-process for direct, stdio for
sdk-stdio). Every WIRECOST_* variable is passed on to the server, as wirecost passes its axes.
Exit status: 0 with the JSON printed; 2 on a bad argument or variable (one line naming it);
1 when the measurement fails (one line on stderr; nothing on stdout).
"""

from __future__ import annotations

import json
import os
import platform
import sys
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
PATHS = {"direct": "in-process", "sdk-stdio": "stdio"}
USAGE = "usage: percall_harness.py --path direct | --path sdk-stdio"


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


def parse_path(argv: list[str]) -> str:
    """`--path direct|sdk-stdio` (or `--path=...`) -> the path name. @raises UsageError"""
    if len(argv) == 1 and argv[0].startswith("--path="):
        argv = ["--path", argv[0].split("=", 1)[1]]
    if len(argv) != 2 or argv[0] != "--path":
        raise UsageError(f"expected --path PATH ({USAGE}), got {' '.join(argv) or 'nothing'}")
    if argv[1] not in PATHS:
        raise UsageError(f'unknown path "{argv[1]}": use one of {", ".join(PATHS)}')
    return argv[1]


def whole(env: dict[str, str], name: str, low: int) -> int:
    """The whole number in `env[name]`, at least `low`. @raises UsageError naming the variable"""
    raw = env.get(name, "")
    if not raw.isascii() or not raw.isdigit() or int(raw) < low:
        raise UsageError(f"{name}={raw!r} is not a whole number >= {low}: wirecost sets it from timing: in the matrix")
    return int(raw)


def read_settings(path: str, env: dict[str, str]) -> Settings:
    """Read and check the variables wirecost sets. @raises UsageError naming the variable and the fix"""
    transport = env.get("WIRECOST_TRANSPORT", "")
    if transport and transport != PATHS[path]:
        raise UsageError(f"WIRECOST_TRANSPORT={transport} but --path {path} measures {PATHS[path]}: fix the target's harness transport or its --path")
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
    finally:
        conn.close()
    return {
        "wirecostHarness": PROTOCOL,
        "samplesUs": samples,
        "resultBytes": result_bytes,
        "runtime": runtime(),
        "cpuPerCallUs": cpu / 1000 / s.calls,
    }


def result_text(result: Any) -> str:
    """The text of a search_tickets result. @raises RuntimeError on a tool error or another shape"""
    if result.is_error:
        raise RuntimeError(f"search_tickets answered a tool error: {result.content!r:.200}")
    first = result.content[0] if result.content else None
    if getattr(first, "type", None) != "text":
        raise RuntimeError(f"search_tickets answered no text content: {result.content!r:.200}")
    return first.text


async def measure_sdk_stdio(s: Settings) -> dict[str, Any]:
    """Time `session.call_tool("search_tickets", ...)` over the SDK's stdio client against server.py.

    Setup phases are milliseconds from before the spawn: ready (the child started and the streams
    are up), open (initialize answered and notifications/initialized sent, or discover answered on
    2026-07-28), listed (tools/list answered), first call answered.
    """
    from importlib.metadata import version

    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    if s.revision not in ("2025-11-25", "2026-07-28"):
        raise UsageError(f"WIRECOST_REVISION={s.revision!r}: this harness opens 2025-11-25 (initialize) or 2026-07-28 (discover) sessions; fix the target's revisions")
    env = {k: v for k, v in os.environ.items() if k.startswith("WIRECOST_")}
    env.update({"WIRECOST_WORKLOAD": "tickets", "WIRECOST_TICKETS_DB": s.db})
    server = StdioServerParameters(command=sys.executable, args=[str(HERE / "server.py"), "--transport", "stdio"], env=env, cwd=str(HERE))
    arguments = {"query": s.query, "limit": s.limit}
    t0 = time.perf_counter_ns()
    async with stdio_client(server) as (read, write):
        ready = ms_since(t0)
        async with ClientSession(read, write) as session:
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
            window.open(with_server=True)
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
            if errors:
                raise RuntimeError(f"{errors} of {s.calls} timed calls answered a tool error")
            negotiated = session.protocol_version
    return {
        "wirecostHarness": PROTOCOL,
        "samplesUs": samples,
        "resultBytes": len(first.encode("utf-8")),
        "setup": {"readyMs": ready, "openMs": opened, "listedMs": listed, "firstCallMs": first_call},
        "runtime": runtime(),
        "sdk": {"name": "mcp", "version": version("mcp")},
        "protocolVersion": negotiated,
        "cpuPerCallUs": cpu / 1000 / s.calls,
    }


def main(argv: list[str]) -> int:
    """Measure the path `argv` names and print the JSON; returns the exit status."""
    try:
        path = parse_path(argv)
        settings = read_settings(path, dict(os.environ))
        if path == "direct":
            out = measure_direct(settings)
        else:
            import anyio

            run: Callable[[], Any] = lambda: measure_sdk_stdio(settings)  # noqa: E731
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
