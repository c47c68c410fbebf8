package main

// The per-call workload (WIRECOST_WORKLOAD=tickets): search_tickets and get_tickets over the
// ticket database that targets/workload/tickets.ts generates, read-only, with exactly the SQL of
// tickets.ts, answering the compact JSON array of rows byte-identical to JSON.stringify(rows).
// This target never creates the database: it must exist (see ticketsDbPath).

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	_ "modernc.org/sqlite" // registers the "sqlite" database/sql driver (pure Go)
)

// ticketsFile is the database's file name, as tickets.ts names it
// (`${TICKETS_GENERATOR}-${TICKET_COUNT}-${TICKET_SEED}.sqlite`).
const ticketsFile = "tickets-v1-5000-20251125.sqlite"

// ticketColumns is the column list of both queries in tickets.ts (the row's key order).
const ticketColumns = "id, subject, body, status, priority, customer, created_at AS createdAt"

const (
	searchSQL = "SELECT " + ticketColumns + " FROM tickets WHERE subject LIKE ? OR body LIKE ? ORDER BY id LIMIT ?"
	byIDSQL   = "SELECT " + ticketColumns + " FROM tickets WHERE id = ?"
)

// ticket is one row; field order and JSON names are those of tickets.ts's Ticket.
type ticket struct {
	ID       int64  `json:"id"`
	Subject  string `json:"subject"`
	Body     string `json:"body"`
	Status   string `json:"status"`
	Priority string `json:"priority"`
	Customer string `json:"customer"`
	// CreatedAt is the created_at column (an ISO 8601 string).
	CreatedAt string `json:"createdAt"`
}

// ticketsDbPath is the database file: $WIRECOST_TICKETS_DB when set, else
// `$WIRECOST_TICKETS_DIR/tickets-v1-5000-20251125.sqlite` with tickets.ts's default folder
// `<tmpdir>/wirecost` (Go's os.TempDir: $TMPDIR or /tmp; Node's tmpdir also reads $TMP/$TEMP).
func ticketsDbPath() string {
	if p := os.Getenv("WIRECOST_TICKETS_DB"); p != "" {
		return p
	}
	dir := os.Getenv("WIRECOST_TICKETS_DIR")
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "wirecost")
	}
	return filepath.Join(dir, ticketsFile)
}

// ticketStore opens the database on first use (as tickets.ts does) and keeps it open.
type ticketStore struct {
	path   string
	once   sync.Once
	db     *sql.DB
	search *sql.Stmt
	byID   *sql.Stmt
	err    error
}

func newTicketStore(path string) *ticketStore { return &ticketStore{path: path} }

// open opens the file read-only and prepares both statements, once. The error names the file and
// the fix when the file is missing.
func (s *ticketStore) open() error {
	s.once.Do(func() {
		if _, err := os.Stat(s.path); errors.Is(err, fs.ErrNotExist) {
			s.err = fmt.Errorf("tickets database %s does not exist: create it with openTickets() from targets/workload/tickets.ts, or set WIRECOST_TICKETS_DB", s.path)
			return
		}
		abs, err := filepath.Abs(s.path)
		if err != nil {
			s.err = err
			return
		}
		uri := (&url.URL{Scheme: "file", Path: abs, RawQuery: "mode=ro"}).String()
		if s.db, s.err = sql.Open("sqlite", uri); s.err != nil {
			return
		}
		if s.search, s.err = s.db.Prepare(searchSQL); s.err != nil {
			s.err = fmt.Errorf("tickets database %s: %w", s.path, s.err)
			return
		}
		if s.byID, s.err = s.db.Prepare(byIDSQL); s.err != nil {
			s.err = fmt.Errorf("tickets database %s: %w", s.path, s.err)
		}
	})
	return s.err
}

// searchTickets returns the tickets whose subject or body contains query (SQL LIKE), lowest id
// first, at most limit rows. Errors: limit outside 1–1000 (tickets.ts's RangeError text), or the
// database.
func (s *ticketStore) searchTickets(ctx context.Context, query string, limit int) ([]ticket, error) {
	if limit < 1 || limit > 1000 {
		return nil, fmt.Errorf("limit %d is not a whole number from 1 to 1000", limit)
	}
	if err := s.open(); err != nil {
		return nil, err
	}
	pattern := "%" + query + "%"
	rows, err := s.search.QueryContext(ctx, pattern, pattern, limit)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := []ticket{}
	for rows.Next() {
		var t ticket
		if err := rows.Scan(&t.ID, &t.Subject, &t.Body, &t.Status, &t.Priority, &t.Customer, &t.CreatedAt); err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// getTickets returns the tickets with these ids in the order given, unknown ids left out.
// Errors: more than 1000 ids (tickets.ts's RangeError text), or the database.
func (s *ticketStore) getTickets(ctx context.Context, ids []int64) ([]ticket, error) {
	if len(ids) > 1000 {
		return nil, fmt.Errorf("%d ids asked for: at most 1000", len(ids))
	}
	if err := s.open(); err != nil {
		return nil, err
	}
	out := []ticket{}
	for _, id := range ids {
		var t ticket
		err := s.byID.QueryRowContext(ctx, id).Scan(&t.ID, &t.Subject, &t.Body, &t.Status, &t.Priority, &t.Customer, &t.CreatedAt)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		out = append(out, t)
	}
	return out, nil
}

// ticketsText is the compact JSON of rows as JavaScript's JSON.stringify writes it: no HTML
// escaping of <, >, &, no trailing newline. (Go still escapes U+2028/U+2029, which JSON.stringify
// does not; the generated tickets are ASCII, so the bytes agree.)
func ticketsText(rows []ticket) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rows); err != nil {
		return "", err
	}
	return string(bytes.TrimSuffix(b.Bytes(), []byte("\n"))), nil
}

// searchArgs is the input of search_tickets: {"query": string, "limit": integer}.
type searchArgs struct {
	Query string `json:"query"`
	Limit int    `json:"limit"`
}

// getArgs is the input of get_tickets: {"ids": integer[]}.
type getArgs struct {
	IDs []int64 `json:"ids"`
}

// registerTicketTools adds search_tickets and get_tickets (after the catalog). A handler error
// becomes an isError tool result carrying its text, as a thrown error does in the TS targets.
func registerTicketTools(server *mcp.Server, store *ticketStore) {
	answer := func(rows []ticket, err error) (*mcp.CallToolResult, any, error) {
		if err != nil {
			return nil, nil, err
		}
		s, err := ticketsText(rows)
		if err != nil {
			return nil, nil, err
		}
		return text(s), nil, nil
	}
	mcp.AddTool(server, &mcp.Tool{Name: "search_tickets", Description: "Search support tickets."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in searchArgs) (*mcp.CallToolResult, any, error) {
			return answer(store.searchTickets(ctx, in.Query, in.Limit))
		})
	mcp.AddTool(server, &mcp.Tool{Name: "get_tickets", Description: "Get support tickets by id."},
		func(ctx context.Context, _ *mcp.CallToolRequest, in getArgs) (*mcp.CallToolResult, any, error) {
			return answer(store.getTickets(ctx, in.IDs))
		})
}
