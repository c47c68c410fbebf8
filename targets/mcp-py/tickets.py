"""The per-call workload of targets/workload/tickets.ts, read from Python: the same SQL over the same
SQLite file, and the same text (JavaScript's `JSON.stringify(rows)`, byte for byte).

Standard library only (sqlite3, json), so an in-process harness can import it without the SDK:

    conn = open_tickets(tickets_db_path())
    text = tickets_text(search_tickets(conn, "refund", 10))

The database is created by the TypeScript side (`openTickets()` in dist/targets/workload/tickets.js);
this module only opens it read-only.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: Must match TICKETS_GENERATOR, TICKET_COUNT and TICKET_SEED in targets/workload/tickets.ts.
TICKETS_FILE = "tickets-v1-5000-20251125.sqlite"

#: Columns in the order every path returns them (`created_at` renamed as in tickets.ts).
COLUMNS = "id, subject, body, status, priority, customer, created_at AS createdAt"
SEARCH_SQL = f"SELECT {COLUMNS} FROM tickets WHERE subject LIKE ? OR body LIKE ? ORDER BY id LIMIT ?"
BY_ID_SQL = f"SELECT {COLUMNS} FROM tickets WHERE id = ?"

Ticket = dict[str, Any]
"""One row: keys id, subject, body, status, priority, customer, createdAt, in that order."""


def tickets_db_path(env: Mapping[str, str] | None = None) -> str:
    """Path of the ticket database.

    `WIRECOST_TICKETS_DB` when set; otherwise where tickets.ts `ticketsDbPath()` puts it:
    `$WIRECOST_TICKETS_DIR/<file>`, or `<temp dir>/wirecost/<file>` (Python's temp dir honours
    TMPDIR like Node's `os.tmpdir()`).
    """
    env = os.environ if env is None else env
    if env.get("WIRECOST_TICKETS_DB", "") != "":
        return env["WIRECOST_TICKETS_DB"]
    folder = env.get("WIRECOST_TICKETS_DIR", "") or os.path.join(tempfile.gettempdir(), "wirecost")
    return os.path.join(folder, TICKETS_FILE)


def open_tickets(path: str) -> sqlite3.Connection:
    """Open the ticket database at `path` read-only, rows as dicts in column order.

    The connection may be used from any thread (the SDK runs handlers on one event loop; a harness
    may not), so `check_same_thread` is off; it is only ever read.

    Raises:
        FileNotFoundError: when `path` does not exist (naming how to create it).
        sqlite3.Error: when the file is not a readable SQLite database.
    """
    file = Path(path).resolve()
    if not file.is_file():
        raise FileNotFoundError(
            f"ticket database {file} not found: create it with "
            "node -e \"import('./dist/targets/workload/tickets.js').then(t => t.openTickets(t.ticketsDbPath()).close())\""
        )
    conn = sqlite3.connect(f"{file.as_uri()}?mode=ro", uri=True, check_same_thread=False)
    conn.row_factory = lambda cursor, row: {d[0]: v for d, v in zip(cursor.description, row)}
    return conn


def search_tickets(conn: sqlite3.Connection, query: str, limit: int) -> list[Ticket]:
    """Tickets whose subject or body contains `query` (SQL LIKE, ASCII case-insensitive), lowest id
    first, at most `limit` rows.

    Raises:
        ValueError: when `limit` is not a whole number from 1 to 1000 (tickets.ts: RangeError).
    """
    if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1 or limit > 1000:
        raise ValueError(f"limit {limit} is not a whole number from 1 to 1000")
    pattern = f"%{query}%"
    return conn.execute(SEARCH_SQL, (pattern, pattern, limit)).fetchall()


def get_tickets(conn: sqlite3.Connection, ids: Sequence[int]) -> list[Ticket]:
    """The tickets with these ids, in the order given; unknown ids are left out.

    Raises:
        ValueError: when more than 1000 ids are asked for (tickets.ts: RangeError).
    """
    if len(ids) > 1000:
        raise ValueError(f"{len(ids)} ids asked for: at most 1000")
    out: list[Ticket] = []
    for ticket_id in ids:
        row = conn.execute(BY_ID_SQL, (ticket_id,)).fetchone()
        if row is not None:
            out.append(row)
    return out


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def tickets_text(rows: Sequence[Ticket]) -> str:
    """Compact JSON of `rows`, byte-identical to JavaScript's `JSON.stringify(rows)`.

    Both escape only `"`, `\\`, and U+0000-U+001F (as \\b \\f \\n \\r \\t or lower-case \\u00xx)
    and write everything else as is; a lone surrogate (which a Python str can hold, a JS one too)
    becomes \\udxxx as in well-formed JSON.stringify. Values are str and int only (the table's types).
    """
    text = json.dumps(list(rows), ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
