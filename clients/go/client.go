// Package shipping is the Go client of the shipping service API.
//
// Every operation of openapi.json is a method of Client (generated.go, from `npm run clients`);
// this file is the hand-written core: credentials, an Idempotency-Key on every POST, retries
// honouring Retry-After, typed errors and pagination. Standard library only.
package shipping

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Version of this client, sent in the User-Agent.
const Version = "0.1.0"

// Options configure a Client. BaseURL is required; the rest have defaults.
type Options struct {
	// BaseURL is the service's address, e.g. https://shipping.example.com (no /v1).
	BaseURL string
	// APIKey is a secret API key (sk_test_…/sk_live_…), or a session token for /api/admin routes.
	APIKey string
	// WorkspaceID goes in X-Service-Workspace.
	WorkspaceID string
	// Environment goes in X-Service-Environment (test or live) for /api/admin routes.
	Environment string
	// MaxRetries is the number of extra attempts on 429/503 and network errors (default 3; -1 for none).
	MaxRetries int
	// BaseDelay is the first wait when the service gives no Retry-After, doubled per attempt (default 500 ms).
	BaseDelay time.Duration
	// MaxDelay caps every wait, Retry-After included (default 30 s).
	MaxDelay time.Duration
	// DisableIdempotencyKeys sends POSTs without an automatic Idempotency-Key.
	DisableIdempotencyKeys bool
	// HTTPClient performs the requests (default: a client with a 30 s timeout).
	HTTPClient *http.Client
	// Sleep waits between attempts (default: a timer that respects the context); for tests.
	Sleep func(ctx context.Context, d time.Duration) error
}

// Client calls the shipping service API. It is safe for concurrent use.
type Client struct {
	opts Options
	base *url.URL
}

// New returns a Client for opts.
func New(opts Options) (*Client, error) {
	base, err := url.Parse(strings.TrimRight(opts.BaseURL, "/"))
	if err != nil || base.Scheme == "" || base.Host == "" {
		return nil, fmt.Errorf("shipping: BaseURL %q is not an absolute URL", opts.BaseURL)
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = 3
	} else if opts.MaxRetries < 0 {
		opts.MaxRetries = 0
	}
	if opts.BaseDelay == 0 {
		opts.BaseDelay = 500 * time.Millisecond
	}
	if opts.MaxDelay == 0 {
		opts.MaxDelay = 30 * time.Second
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: 30 * time.Second}
	}
	if opts.Sleep == nil {
		opts.Sleep = sleepContext
	}
	return &Client{opts: opts, base: base}, nil
}

func sleepContext(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// RequestOption changes one request.
type RequestOption func(*requestConfig)

type requestConfig struct {
	idempotencyKey string
	header         http.Header
}

// WithIdempotencyKey sends key as the Idempotency-Key instead of a random one.
func WithIdempotencyKey(key string) RequestOption {
	return func(c *requestConfig) { c.idempotencyKey = key }
}

// WithHeader adds a header to one request.
func WithHeader(name, value string) RequestOption {
	return func(c *requestConfig) {
		if c.header == nil {
			c.header = http.Header{}
		}
		c.header.Set(name, value)
	}
}

// APIError is a non-2xx answer: the contract's {code, message, details, request_id} plus the status.
type APIError struct {
	Status    int
	Code      string
	Message   string
	Details   []any
	RequestID string
	Header    http.Header
}

func (e *APIError) Error() string {
	return fmt.Sprintf("shipping: %d %s: %s (request %s)", e.Status, e.Code, e.Message, e.RequestID)
}

// RetryAfter is the wait the service asked for (429/503), or 0.
func (e *APIError) RetryAfter() time.Duration {
	d, _ := RetryAfter(e.Header.Get("Retry-After"), time.Now())
	return d
}

// ConnectionError is a request that got no answer (refused, reset, timed out) after retries.
type ConnectionError struct {
	Method, URL string
	Err         error
}

func (e *ConnectionError) Error() string {
	return fmt.Sprintf("shipping: %s %s: %v", e.Method, e.URL, e.Err)
}

func (e *ConnectionError) Unwrap() error { return e.Err }

// IsNotFound reports whether err is a 404 APIError.
func IsNotFound(err error) bool {
	var apiErr *APIError
	return errors.As(err, &apiErr) && apiErr.Status == http.StatusNotFound
}

// RetryAfter reads a Retry-After header (seconds or an HTTP date); ok is false when absent or unreadable.
func RetryAfter(header string, now time.Time) (time.Duration, bool) {
	header = strings.TrimSpace(header)
	if header == "" {
		return 0, false
	}
	if secs, err := strconv.ParseFloat(header, 64); err == nil {
		if secs < 0 {
			secs = 0
		}
		return time.Duration(secs * float64(time.Second)), true
	}
	if at, err := http.ParseTime(header); err == nil {
		if d := at.Sub(now); d > 0 {
			return d, true
		}
		return 0, true
	}
	return 0, false
}

func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Call performs any operation by its operationId in openapi.json: pathParams fill the path,
// body is sent as JSON, and the answer is decoded into out (a pointer; *[]byte for a label).
func (c *Client) Call(ctx context.Context, operationID string, pathParams map[string]string, query url.Values, body any, out any, opts ...RequestOption) error {
	op, ok := operations[operationID]
	if !ok {
		return fmt.Errorf("shipping: unknown operation %q", operationID)
	}
	return c.do(ctx, op[0], op[1], pathParams, query, body, out, opts)
}

// CallPages walks every page of a list operation by its operationId, keeping query's filters.
func (c *Client) CallPages(operationID string, pathParams map[string]string, query url.Values, opts ...RequestOption) *Pager[map[string]any] {
	return newPager(func(ctx context.Context, cursor string) (*Page[map[string]any], error) {
		q := url.Values{}
		for k, v := range query {
			q[k] = v
		}
		q.Del("cursor")
		if cursor != "" {
			q.Set("cursor", cursor)
		}
		page := new(Page[map[string]any])
		if err := c.Call(ctx, operationID, pathParams, q, nil, page, opts...); err != nil {
			return nil, err
		}
		return page, nil
	})
}

func (c *Client) do(ctx context.Context, method, template string, pathParams map[string]string, query url.Values, body any, out any, opts []RequestOption) error {
	var cfg requestConfig
	for _, o := range opts {
		o(&cfg)
	}
	path := template
	for name, value := range pathParams {
		if value == "" {
			return fmt.Errorf("shipping: %s is required", name)
		}
		path = strings.ReplaceAll(path, "{"+name+"}", url.PathEscape(value))
	}
	target := c.base.String() + path
	if len(query) > 0 {
		target += "?" + query.Encode()
	}
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return fmt.Errorf("shipping: encoding the body: %w", err)
		}
	}
	idempotencyKey := cfg.idempotencyKey
	if method == http.MethodPost && idempotencyKey == "" && !c.opts.DisableIdempotencyKeys {
		// Fixed before the first attempt: every retry replays the same request, answered once.
		idempotencyKey = newUUID()
	}
	// Without a key a POST lost in transit may have been processed: only a GET, or a POST the
	// service can deduplicate, is sent again after a network error.
	replayable := method == http.MethodGet || method == http.MethodHead || (method == http.MethodPost && idempotencyKey != "")
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, target, bytes.NewReader(payload))
		if err != nil {
			return err
		}
		req.Header.Set("Accept", "application/json")
		req.Header.Set("User-Agent", "shipping-service-go/"+Version)
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		} else {
			req.Body = http.NoBody
		}
		if c.opts.APIKey != "" {
			req.Header.Set("Authorization", "Bearer "+c.opts.APIKey)
		}
		if c.opts.WorkspaceID != "" {
			req.Header.Set("X-Service-Workspace", c.opts.WorkspaceID)
		}
		if c.opts.Environment != "" {
			req.Header.Set("X-Service-Environment", c.opts.Environment)
		}
		if idempotencyKey != "" && method == http.MethodPost {
			req.Header.Set("Idempotency-Key", idempotencyKey)
		}
		for name, values := range cfg.header {
			req.Header[name] = values
		}
		res, err := c.opts.HTTPClient.Do(req)
		if err != nil {
			if ctx.Err() != nil || !replayable || attempt >= c.opts.MaxRetries {
				return &ConnectionError{Method: method, URL: target, Err: err}
			}
			if err := c.opts.Sleep(ctx, c.backoff(attempt)); err != nil {
				return err
			}
			continue
		}
		data, readErr := io.ReadAll(res.Body)
		res.Body.Close()
		if (res.StatusCode == http.StatusTooManyRequests || res.StatusCode == http.StatusServiceUnavailable) && attempt < c.opts.MaxRetries {
			wait, ok := RetryAfter(res.Header.Get("Retry-After"), time.Now())
			if !ok {
				wait = c.backoff(attempt)
			}
			if wait > c.opts.MaxDelay {
				wait = c.opts.MaxDelay
			}
			if err := c.opts.Sleep(ctx, wait); err != nil {
				return err
			}
			continue
		}
		if readErr != nil {
			if !replayable || attempt >= c.opts.MaxRetries {
				return &ConnectionError{Method: method, URL: target, Err: readErr}
			}
			continue
		}
		if res.StatusCode >= 400 {
			return errorFrom(res, data)
		}
		return decode(res, data, out)
	}
}

func (c *Client) backoff(attempt int) time.Duration {
	d := c.opts.BaseDelay << attempt
	if d > c.opts.MaxDelay || d <= 0 {
		d = c.opts.MaxDelay
	}
	return d
}

func errorFrom(res *http.Response, data []byte) error {
	var body struct {
		Code      string `json:"code"`
		Message   string `json:"message"`
		Details   any    `json:"details"`
		RequestID string `json:"request_id"`
	}
	_ = json.Unmarshal(data, &body)
	e := &APIError{Status: res.StatusCode, Code: body.Code, Message: body.Message, RequestID: body.RequestID, Header: res.Header}
	switch d := body.Details.(type) {
	case []any:
		e.Details = d
	case nil:
		e.Details = []any{}
	default:
		e.Details = []any{d}
	}
	if e.Code == "" {
		e.Code = "unknown"
	}
	if e.Message == "" {
		e.Message = http.StatusText(res.StatusCode)
	}
	if e.RequestID == "" {
		e.RequestID = res.Header.Get("X-Request-Id")
	}
	return e
}

func decode(res *http.Response, data []byte, out any) error {
	if out == nil || res.StatusCode == http.StatusNoContent {
		return nil
	}
	switch o := out.(type) {
	case *[]byte:
		*o = data
		return nil
	case *string:
		*o = string(data)
		return nil
	}
	if err := json.Unmarshal(data, out); err != nil {
		return fmt.Errorf("shipping: decoding the answer (%d, %s): %w", res.StatusCode, res.Header.Get("Content-Type"), err)
	}
	return nil
}

// Page is one page of a list: the items, whether more follow, and the cursor of the next page.
type Page[T any] struct {
	Data       []T     `json:"data"`
	HasMore    bool    `json:"has_more"`
	NextCursor *string `json:"next_cursor"`
}

// Pager walks every page of a list, keeping its filters: for p.Next(ctx) { p.Item() }; p.Err().
type Pager[T any] struct {
	fetch  func(ctx context.Context, cursor string) (*Page[T], error)
	items  []T
	index  int
	cursor string
	done   bool
	err    error
}

func newPager[T any](fetch func(ctx context.Context, cursor string) (*Page[T], error)) *Pager[T] {
	return &Pager[T]{fetch: fetch, index: -1}
}

// Next advances to the next item, fetching the next page when needed; false at the end or on error.
func (p *Pager[T]) Next(ctx context.Context) bool {
	for {
		if p.err != nil {
			return false
		}
		if p.index+1 < len(p.items) {
			p.index++
			return true
		}
		if p.done {
			return false
		}
		page, err := p.fetch(ctx, p.cursor)
		if err != nil {
			p.err = err
			return false
		}
		p.items, p.index = page.Data, -1
		if page.HasMore && page.NextCursor != nil && *page.NextCursor != "" {
			p.cursor = *page.NextCursor
		} else {
			p.done = true
		}
	}
}

// Item is the current item (after Next returned true).
func (p *Pager[T]) Item() T { return p.items[p.index] }

// Err is the error that stopped the walk, if any.
func (p *Pager[T]) Err() error { return p.err }

// All collects every item (convenient for small lists).
func (p *Pager[T]) All(ctx context.Context) ([]T, error) {
	var all []T
	for p.Next(ctx) {
		all = append(all, p.Item())
	}
	return all, p.Err()
}
