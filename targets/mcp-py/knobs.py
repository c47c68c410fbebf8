"""The mcp-py target's knobs, read from the environment (`WIRECOST_<AXIS>`).

Same catalog and state knobs as targets/mcp-ts-v2 (`WIRECOST_CATALOG`, `WIRECOST_STATE`), plus the
three SDK options of mcp 2.2.0 that change the bytes on the wire (`WIRECOST_PYSTRUCTURED`,
`WIRECOST_PYSTATE`, `WIRECOST_PYANSWERS`), each defaulting to the SDK's own default.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass

#: Description of each `tool_K` filler tool (targets/common/config.ts FILLER_DESCRIPTION).
FILLER_DESCRIPTION = "Catalog filler tool."
#: The question `confirm` puts to the user (targets/common/config.ts CONFIRM_MESSAGE).
CONFIRM_MESSAGE = "Proceed?"
#: Alphabet the `requestState` filler cycles through (base64url characters: no JSON escaping).
STATE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"


class KnobError(Exception):
    """A knob with a value the target cannot serve; the message names the variable and the fix."""


@dataclass(frozen=True)
class Knobs:
    """What the target serves, as read by :func:`knobs_from_env`."""

    #: Tools listed by `tools/list` (`WIRECOST_CATALOG`, default 3, at least 1).
    catalog_size: int = 3
    #: Bytes of plaintext `requestState` `confirm` attaches on 2026-07-28 (`WIRECOST_STATE`, 0 = none).
    state_bytes: int = 0
    #: `WIRECOST_PYSTRUCTURED`: True = the SDK's default structured output for `-> str` tools
    #: (`outputSchema` in tools/list, `structuredContent` in results); False = `structured_output=False`.
    structured: bool = True
    #: `WIRECOST_PYSTATE`: True = `requestState` sealed by MCPServer's `RequestStateBoundary` (the
    #: SDK default); False = that boundary taken out of `MCPServer.middleware`, state sent as minted.
    sealed_state: bool = True
    #: `WIRECOST_PYANSWERS`: True = `json_response=True`; False = SSE answers (the SDK default).
    json_answers: bool = False
    #: `WIRECOST_WORKLOAD=tickets`: also serve `search_tickets` and `get_tickets`.
    tickets: bool = False
    #: `WIRECOST_DEBUG=1`: the SDK's own log (MCPServer `log_level="DEBUG"`) on stderr; else WARNING.
    debug: bool = False


def read_count(env: Mapping[str, str], name: str, fallback: int, minimum: int) -> int:
    """A whole-number knob: `fallback` when unset or empty.

    Raises:
        KnobError: naming `name` when the value is not a whole number >= `minimum`.
    """
    raw = env.get(name, "")
    if raw == "":
        return fallback
    if not re.fullmatch(r"[0-9]+", raw) or int(raw) < minimum or int(raw) > 2**53 - 1:
        raise KnobError(f"{name}={raw} is not valid: set it to a whole number >= {minimum}, or unset it for {fallback}")
    return int(raw)


def read_choice(env: Mapping[str, str], name: str, choices: tuple[str, str], fallback: str) -> str:
    """A two-valued knob (the matrix's pass-through axis value): `fallback` when unset or empty.

    Raises:
        KnobError: naming `name` and both accepted values when the value is anything else.
    """
    raw = env.get(name, "")
    if raw == "":
        return fallback
    if raw not in choices:
        raise KnobError(f"{name}={raw} is not valid: set it to {choices[0]} or {choices[1]}, or unset it for {fallback}")
    return raw


def knobs_from_env(env: Mapping[str, str] | None = None) -> Knobs:
    """Read :class:`Knobs` from the environment (default: `os.environ`).

    `WIRECOST_STATE` (the matrix's `state` axis) wins over the older `WIRECOST_STATE_BYTES`.

    Raises:
        KnobError: on the first bad value, naming the variable and the fix.
    """
    env = os.environ if env is None else env
    state_name = "WIRECOST_STATE" if env.get("WIRECOST_STATE", "") != "" else "WIRECOST_STATE_BYTES"
    workload = env.get("WIRECOST_WORKLOAD", "")
    if workload not in ("", "tickets"):
        raise KnobError(f"WIRECOST_WORKLOAD={workload} is not valid: set it to tickets, or unset it for none")
    return Knobs(
        catalog_size=read_count(env, "WIRECOST_CATALOG", 3, 1),
        state_bytes=read_count(env, state_name, 0, 0),
        structured=read_choice(env, "WIRECOST_PYSTRUCTURED", ("on", "off"), "on") == "on",
        sealed_state=read_choice(env, "WIRECOST_PYSTATE", ("sealed", "plain"), "sealed") == "sealed",
        json_answers=read_choice(env, "WIRECOST_PYANSWERS", ("json", "sse"), "sse") == "json",
        tickets=workload == "tickets",
        debug=env.get("WIRECOST_DEBUG", "") == "1",
    )


def request_state_of(size: int) -> str:
    """The deterministic `requestState` plaintext of exactly `size` ASCII bytes (empty when 0)."""
    reps, rest = divmod(size, len(STATE_ALPHABET))
    return STATE_ALPHABET * reps + STATE_ALPHABET[:rest]
