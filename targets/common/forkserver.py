"""wirecost's fork server for Python targets in bytes runs: the interpreter and the SDK's modules are
loaded once, and each run's server is a process forked from that one, running the target's own
script unchanged.

    PYTHON forkserver.py serve SOCKET [MODULE ...]       # started once per target by the runner
    PYTHON -I -S forkserver.py launch SOCKET -- SCRIPT [ARG ...]   # one per run, in place of
                                                        # `PYTHON SCRIPT ARG ...`

Why: a bytes run starts a fresh server for every repeat, and the Python MCP SDK server spends about
0.8 s of CPU importing its modules at every start (pydantic models of two protocol revisions, the
client package, starlette, uvicorn). The bytes on the wire do not depend on how the process was
started, so bytes runs (and only they: timing and per-call runs start the target as declared) fork
each server from a process that imported those modules already. ARCHITECTURE.md, "Fork servers".

serve: imports each MODULE, listens on the Unix seqpacket socket SOCKET, writes `ready\\n` on
stdout (fd 1, unbuffered), and then for each connection receives one message, a JSON object
`{"argv": [SCRIPT, ARG...], "cwd": DIR, "env": {NAME: VALUE}}` with three file descriptors (the
launcher's stdin, stdout and stderr), forks, and answers `{"pid": N}`. The child puts the three
descriptors at 0, 1 and 2, takes the cwd and environment, sets `sys.argv` and `sys.path[0]` as
`python SCRIPT ARG...` would, and runs SCRIPT as a fresh `__main__` module. When the child ends the server
sends `{"exit": CODE}` or `{"signal": N}` and closes the connection; when the connection closes
first (the launcher was killed), the child is killed (SIGKILL). The server ends, killing every
child and removing SOCKET (and its folder, when empty), when its stdin reaches end of file (the
runner is gone) or on SIGTERM/SIGINT. Children stay
in the server's process group, so stopping that group stops them too.

launch: connects to SOCKET, sends its argv after `--`, its cwd and environment and its descriptors
0, 1 and 2, then forwards SIGTERM, SIGINT and SIGHUP to the child and exits as the child did (the
same exit code, or the same signal). It imports only the standard library, so `-I -S` keep its own
start-up to milliseconds. Errors: one line `forkserver: ...` on stderr and exit 1 (no fork server
at SOCKET, a protocol error), 2 for a bad command line.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import sys

USAGE = "usage: forkserver.py serve SOCKET [MODULE ...] | forkserver.py launch SOCKET -- SCRIPT [ARG ...]"
MAX_MESSAGE = 1 << 20  # bytes of one request (argv, cwd and the environment as JSON)


def fail(message: str, code: int = 1) -> None:
    """Write `forkserver: <message>` as one line on stderr and exit with `code` at once."""
    os.write(2, f"forkserver: {message}\n".encode("utf-8", "backslashreplace"))
    os._exit(code)


def send(conn: socket.socket, obj: dict) -> None:
    """Send one JSON message on a seqpacket connection; a closed peer is ignored."""
    try:
        conn.send(json.dumps(obj).encode())
    except OSError:
        pass


def run_child(request: dict, fds: list[int], inherited: list[socket.socket]) -> None:
    """In the forked child: become `python SCRIPT ARG...` with the launcher's stdio, then run SCRIPT. Never returns."""
    import builtins
    import types

    try:
        for sock in inherited:
            sock.close()
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_DFL)
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        for fd in fds:
            if fd > 2:
                os.close(fd)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        argv = [str(a) for a in request["argv"]]
        script = os.path.abspath(argv[0])
        sys.argv = argv
        sys.path[0] = os.path.dirname(script)
    except Exception as e:  # the request is unusable: the launcher reports the exit status
        fail(f"cannot start {request.get('argv')!r}: {type(e).__name__}: {e}")
    code = 0
    try:
        # As `python SCRIPT` does: a fresh __main__ module, __file__ absolute (Python 3.9+), sys.argv as given;
        # dont_inherit: this file's `from __future__ import annotations` must not apply to SCRIPT (it
        # would turn SCRIPT's annotations into strings, which FastMCP then cannot resolve).
        with open(script, "rb") as f:
            compiled = compile(f.read(), script, "exec", dont_inherit=True)
        main = types.ModuleType("__main__")
        main.__dict__.update({"__file__": script, "__cached__": None, "__builtins__": builtins})
        sys.modules["__main__"] = main
        exec(compiled, main.__dict__)
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        if not isinstance(e.code, int) and e.code is not None:
            sys.stderr.write(f"{e.code}\n")
    except BaseException:  # as the interpreter does for an uncaught exception
        import traceback

        traceback.print_exc()
        code = 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass
    os._exit(code)


def serve(path: str, modules: list[str]) -> None:
    """The fork server loop (see the module docstring). Returns never: exits 0 when told to stop."""
    import importlib
    import selectors

    for name in modules:
        try:
            importlib.import_module(name)
        except Exception as e:
            fail(f"cannot import {name}: {type(e).__name__}: {e}")
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        listener.bind(path)
    except OSError as e:
        fail(f"cannot listen on {path}: {e.strerror or e}")
    listener.listen(64)
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    stop = False

    def on_stop(signum: int, frame: object) -> None:
        nonlocal stop
        stop = True

    signal.signal(signal.SIGCHLD, lambda signum, frame: None)
    signal.signal(signal.SIGTERM, on_stop)
    signal.signal(signal.SIGINT, on_stop)
    sel = selectors.DefaultSelector()
    sel.register(listener, selectors.EVENT_READ, "accept")
    sel.register(0, selectors.EVENT_READ, "stdin")
    sel.register(wake_r, selectors.EVENT_READ, "wake")
    children: dict[int, socket.socket] = {}  # child pid -> its launcher's connection
    by_conn: dict[socket.socket, int] = {}
    os.write(1, b"ready\n")

    def reap() -> None:
        while children:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = children.pop(pid, None)
            if conn is None:
                continue
            by_conn.pop(conn, None)
            if os.WIFSIGNALED(status):
                send(conn, {"signal": os.WTERMSIG(status)})
            else:
                send(conn, {"exit": os.waitstatus_to_exitcode(status)})
            sel.unregister(conn)
            conn.close()

    while not stop:
        for key, _ in sel.select(timeout=1.0):
            if key.data == "wake":
                os.read(wake_r, 4096)
                reap()
            elif key.data == "stdin":
                if not os.read(0, 4096):
                    stop = True
            elif key.data == "accept":
                conn, _ = listener.accept()
                try:
                    raw, fds, _, _ = socket.recv_fds(conn, MAX_MESSAGE, 3)
                    request = json.loads(raw)
                    if len(fds) != 3 or not isinstance(request.get("argv"), list) or not request["argv"]:
                        raise ValueError("expected argv, cwd, env and three descriptors")
                except Exception as e:
                    send(conn, {"error": f"{type(e).__name__}: {e}"})
                    conn.close()
                    continue
                for stream in (sys.stdout, sys.stderr):
                    stream.flush()
                pid = os.fork()
                if pid == 0:
                    run_child(request, fds, [listener, conn, *by_conn.keys()])
                for fd in fds:
                    os.close(fd)
                children[pid] = conn
                by_conn[conn] = pid
                sel.register(conn, selectors.EVENT_READ, "conn")
                send(conn, {"pid": pid})
            else:  # a launcher's connection is readable: it closed (the launcher is gone)
                conn = key.fileobj
                pid = by_conn.get(conn)  # type: ignore[arg-type]
                if pid is not None:
                    try:
                        os.kill(pid, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
                sel.unregister(conn)
                by_conn.pop(conn, None)  # type: ignore[arg-type]
        reap()
    for pid in list(children):
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    for pid in list(children):
        try:
            os.waitpid(pid, 0)
        except ChildProcessError:
            pass
    # Leave no socket behind, also when the runner was killed and could not clean up (its folder
    # holds this server's socket only: removed when empty).
    for remove in (lambda: os.unlink(path), lambda: os.rmdir(os.path.dirname(path))):
        try:
            remove()
        except OSError:
            pass
    os._exit(0)


def launch(path: str, argv: list[str]) -> None:
    """Run `argv` in a child of the fork server at `path` and exit as it did (see the module docstring)."""
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    try:
        conn.connect(path)
    except OSError as e:
        fail(f"no fork server at {path}: {e.strerror or e}")
    request = {"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}
    socket.send_fds(conn, [json.dumps(request).encode()], [0, 1, 2])
    # The child holds stdin and stdout now: let go of them, so that their ends close with the child.
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    os.close(devnull)
    child = 0
    pending: list[int] = []  # signals that came before the child's pid

    def forward(signum: int, frame: object) -> None:
        if not child:
            pending.append(signum)
            return
        try:
            os.kill(child, signum)
        except ProcessLookupError:
            pass

    for sig in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(sig, forward)
    while True:
        raw = conn.recv(MAX_MESSAGE)
        if not raw:
            fail("the fork server closed the connection before the child ended")
        answer = json.loads(raw)
        if "pid" in answer:
            child = int(answer["pid"])
            for sig in pending:
                forward(sig, None)
        elif "error" in answer:
            fail(f"the fork server refused the request: {answer['error']}")
        elif "signal" in answer:
            sig = int(answer["signal"])
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)
            os._exit(128 + sig)
        else:
            os._exit(int(answer.get("exit", 1)))


def main(argv: list[str]) -> None:
    """Dispatch `serve` and `launch` (see the module docstring)."""
    if len(argv) >= 2 and argv[0] == "serve":
        serve(argv[1], argv[2:])
    elif len(argv) >= 4 and argv[0] == "launch" and argv[2] == "--":
        launch(argv[1], argv[3:])
    else:
        fail(USAGE, 2)


if __name__ == "__main__":
    main(sys.argv[1:])
