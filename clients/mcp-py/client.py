"""The MCP Python SDK's own client (mcp, `ClientSession`) as a client declared in matrix.yaml.

One session per run, then the flow, then the session and transport close:

    python client.py REVISION FLOW --url URL          # Streamable HTTP (the relay's URL)
    python client.py REVISION FLOW -- CMD [ARG...]    # stdio: the SDK's stdio_client starts CMD

REVISION: 2025-11-25 (`initialize`) or 2026-07-28 (`discover`); the session must end up on it.
FLOW: `plain` (tools/list, then one tools/call of `echo`, as wirecost's raw driver does), `list`
(tools/list), `call` (one tools/call of `echo`) or `steps`: the steps of the flow the matrix
declares (`flows:`), which the runner gives as JSON in `WIRECOST_FLOW_STEPS` (kinds open,
list-tools, list-resources, list-prompts, read-resource, call-tool, repeat, end;
runner/matrix/flows.ts). A call-tool step with `input: accept` answers the tool's one input request
as the raw driver does (accept, `{"confirm": true}`): in the 2025 era the server's
`elicitation/create` through the session's elicitation callback; on 2026-07-28 the
`input_required` result, the call retried with `inputResponses` and the `requestState` echoed.
`end` ends the session the SDK's way: the transport is left (Streamable HTTP: a DELETE with the
session id, when the server assigned one; stdio: the server's stdin closed); a steps flow without
it leaves HTTP sessions open (the transport's `terminate_on_close` off). The echo text is `WIRECOST_ARGS` bytes of "x"
(the `args` axis, as the raw driver sends), "hello" without it. A target declaring `tool:` in the
matrix names another tool: `WIRECOST_TOOL_NAME` and `WIRECOST_TOOL_ARGUMENTS` (a JSON object) are
called instead, and any answer that is not a tool error passes. Prints the tool's answer on
stdout; any failure is one line on stderr and exit 1.
"""

from __future__ import annotations

import json
import os
import sys

import anyio


def fail(message: str) -> None:
    print(f"mcp-py client: {message}", file=sys.stderr)
    sys.exit(1)


def echo_text() -> str:
    n = os.environ.get("WIRECOST_ARGS")
    if n is None or n == "":
        return "hello"
    if not n.isdigit():
        fail(f"WIRECOST_ARGS={n!r} is not a byte count")
    return "x" * int(n)


def tool_call() -> tuple[str, dict, str | None]:
    """The tool to call: (name, arguments, the text its answer must be, or None for any answer)."""
    name = os.environ.get("WIRECOST_TOOL_NAME")
    if not name:
        text = echo_text()
        return "echo", {"text": text}, text
    raw = os.environ.get("WIRECOST_TOOL_ARGUMENTS") or "{}"
    try:
        arguments = json.loads(raw)
    except ValueError as e:
        fail(f"WIRECOST_TOOL_ARGUMENTS is not JSON ({e}): {raw[:80]}")
    if not isinstance(arguments, dict):
        fail(f"WIRECOST_TOOL_ARGUMENTS is not a JSON object: {raw[:80]}")
    return name, arguments, None


def flow_steps() -> list:
    """The declared flow's steps (WIRECOST_FLOW_STEPS, a JSON list); the first must be open."""
    raw = os.environ.get("WIRECOST_FLOW_STEPS") or ""
    try:
        steps = json.loads(raw)
    except ValueError as e:
        fail(f"WIRECOST_FLOW_STEPS is not JSON ({e}): {raw[:80]}")
    if not isinstance(steps, list) or not steps or steps[0].get("kind") != "open":
        fail("WIRECOST_FLOW_STEPS is not a list of steps starting with open")
    return steps


CONFIRM = {"action": "accept", "content": {"confirm": True}}
"""The answer to every input request (runner/drivers/mcp/flows.ts CONFIRM_ANSWER)."""

elicitations = 0
"""elicitation/create requests the session answered (2025 era)."""


async def answer_elicitation(context, params):
    """The session's elicitation callback: accept, confirm: true."""
    global elicitations
    from mcp_types import ElicitResult

    elicitations += 1
    return ElicitResult(**CONFIRM)


async def run_steps(session, steps: list) -> None:
    """Run the steps after open (the session is open already); `end` stops here: leaving the transport ends the session."""
    for step in steps[1:]:
        if step.get("kind") == "end":
            return
        await run_step(session, step)


def asks_input(steps: list) -> bool:
    """Whether a step (or a repeated one) answers an input request."""
    return any(s.get("input") is not None or (s.get("kind") == "repeat" and asks_input([s["step"]])) for s in steps)


async def call_with_input(session, name: str, arguments: dict):
    """One tools/call whose tool asks one input request, answered (module docstring)."""
    from mcp_types import ElicitResult, InputRequiredResult

    before = elicitations
    result = await session.call_tool(name, arguments, allow_input_required=True)
    if isinstance(result, InputRequiredResult):
        if not result.input_requests:
            fail(f"{name} answered input_required without input requests")
        responses = {key: ElicitResult(**CONFIRM) for key in result.input_requests}
        return await session.call_tool(name, arguments, input_responses=responses, request_state=result.request_state)
    if elicitations == before:
        fail(f"{name} asked no input request (expected one: input: accept)")
    return result


async def run_step(session, step: dict) -> None:
    kind = step.get("kind")
    if kind == "list-tools":
        await session.list_tools()
    elif kind == "list-resources":
        await session.list_resources()
    elif kind == "list-prompts":
        await session.list_prompts()
    elif kind == "read-resource":
        await session.read_resource(step["uri"])
    elif kind == "repeat":
        for _ in range(int(step["times"])):
            await run_step(session, step["step"])
    elif kind == "call-tool":
        if "name" in step:
            name, arguments, echoed = step["name"], step.get("arguments") or {}, step.get("text")
        else:
            name, arguments, echoed = tool_call()
        if step.get("input") is not None:
            result = await call_with_input(session, name, arguments)
        else:
            result = await session.call_tool(name, arguments)
        first = result.content[0] if result.content else None
        if result.is_error or (echoed is not None and getattr(first, "text", None) != echoed):
            fail(f"{name} answered {result!r:.200}")
        print(getattr(first, "text", ""))
    else:
        fail(f"unknown step {step!r:.120}")


async def run(revision: str, flow: str, url: str | None, command: list[str]) -> None:
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client
    from mcp.client.streamable_http import streamable_http_client

    steps = flow_steps() if flow == "steps" else None
    if url is not None:
        # The SDK ends an HTTP session (DELETE) when its transport is left, unless told not to: a
        # steps flow does so only at its `end` step; the fixed flows keep the SDK's default.
        ends = steps is None or any(s.get("kind") == "end" for s in steps)
        transport = streamable_http_client(url, terminate_on_close=ends)
    else:
        # The SDK passes only a default environment to the server; the tap wrapper ({stdio}) carries its own.
        transport = stdio_client(StdioServerParameters(command=command[0], args=command[1:], cwd=os.getcwd()))
    async with transport as streams:
        read, write = streams[0], streams[1]
        # The elicitation capability is offered only to a flow that answers input (it adds bytes to initialize).
        callback = {"elicitation_callback": answer_elicitation} if steps is not None and asks_input(steps) else {}
        async with ClientSession(read, write, **callback) as session:
            if revision == "2026-07-28":
                await session.discover()
            else:
                await session.initialize()
            if session.protocol_version != revision:
                fail(f"the session negotiated {session.protocol_version}, not {revision}")
            if steps is not None:
                await run_steps(session, steps)
                return
            name, arguments, echoed = tool_call()
            if flow in ("plain", "list"):
                tools = await session.list_tools()
                if name not in [t.name for t in tools.tools]:
                    fail(f"the server lists no {name} tool")
            if flow in ("plain", "call"):
                result = await session.call_tool(name, arguments)
                first = result.content[0] if result.content else None
                if result.is_error or (echoed is not None and getattr(first, "text", None) != echoed):
                    fail(f"{name} answered {result!r:.200}")
                print(getattr(first, "text", ""))


def main(argv: list[str]) -> None:
    if len(argv) < 4 or argv[0] not in ("2025-11-25", "2026-07-28") or argv[1] not in ("plain", "list", "call", "steps"):
        fail("usage: client.py 2025-11-25|2026-07-28 plain|list|call|steps (--url URL | -- CMD [ARG...])")
    revision, flow, mode = argv[0], argv[1], argv[2]
    if mode == "--url" and len(argv) == 4:
        anyio.run(run, revision, flow, argv[3], [])
    elif mode == "--":
        anyio.run(run, revision, flow, None, argv[3:])
    else:
        fail("give --url URL or -- CMD [ARG...] after the flow")


if __name__ == "__main__":
    main(sys.argv[1:])
