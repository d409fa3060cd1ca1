package shipping

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// The core against a scripted server (httptest): keys, retries, errors, pagination, enums.

type answer struct {
	status int
	header map[string]string
	body   string
}

type seenRequest struct {
	method, path, query, key, auth, workspace, body string
}

func scripted(t *testing.T, answers ...answer) (*Client, *[]seenRequest, *[]time.Duration) {
	t.Helper()
	var mu sync.Mutex
	var seen []seenRequest
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		mu.Lock()
		seen = append(seen, seenRequest{r.Method, r.URL.EscapedPath(), r.URL.RawQuery, r.Header.Get("Idempotency-Key"), r.Header.Get("Authorization"), r.Header.Get("X-Service-Workspace"), string(body)})
		a := answer{status: 200, body: `{}`}
		if len(answers) > 0 {
			a, answers = answers[0], answers[1:]
		}
		mu.Unlock()
		for k, v := range a.header {
			w.Header().Set(k, v)
		}
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", "application/json")
		}
		w.WriteHeader(a.status)
		io.WriteString(w, a.body)
	}))
	t.Cleanup(srv.Close)
	var waits []time.Duration
	c, err := New(Options{BaseURL: srv.URL, APIKey: "sk_test_x", WorkspaceID: "ws_1", Sleep: func(_ context.Context, d time.Duration) error {
		waits = append(waits, d)
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return c, &seen, &waits
}

func TestCredentialsAndAFreshIdempotencyKeyPerPost(t *testing.T) {
	c, seen, _ := scripted(t, answer{201, nil, `{"id":"ord_1","status":"awaiting_fulfillment"}`}, answer{201, nil, `{"id":"ord_2"}`})
	ctx := context.Background()
	order, err := c.CreateOrder(ctx, map[string]any{"line_items": []any{}})
	if err != nil || order.ID != "ord_1" || order.Status != OrderStatusAwaitingFulfillment {
		t.Fatalf("order %+v err %v", order, err)
	}
	if _, err := c.CreateOrder(ctx, map[string]any{}); err != nil {
		t.Fatal(err)
	}
	s := *seen
	if s[0].auth != "Bearer sk_test_x" || s[0].workspace != "ws_1" || s[0].body != `{"line_items":[]}` {
		t.Fatalf("first request %+v", s[0])
	}
	if len(s[0].key) != 36 || s[0].key == s[1].key {
		t.Fatalf("keys %q %q", s[0].key, s[1].key)
	}
}

func TestRetries429And503HonouringRetryAfterWithTheSameKeyAndBody(t *testing.T) {
	c, seen, waits := scripted(t,
		answer{429, map[string]string{"Retry-After": "2"}, `{"code":"rate_limited"}`},
		answer{503, map[string]string{"Retry-After": "120"}, `{}`},
		answer{503, nil, `{}`},
		answer{200, nil, `{"rates":[]}`},
	)
	out, err := c.QueryRates(context.Background(), map[string]any{"ship_to": map[string]any{"country": "US"}})
	if err != nil || out["rates"] == nil {
		t.Fatalf("out %v err %v", out, err)
	}
	want := []time.Duration{2 * time.Second, 30 * time.Second, 2 * time.Second}
	if !reflect.DeepEqual(*waits, want) {
		t.Fatalf("waits %v, want %v", *waits, want)
	}
	keys, bodies := map[string]bool{}, map[string]bool{}
	for _, r := range *seen {
		keys[r.key], bodies[r.body] = true, true
	}
	if len(*seen) != 4 || len(keys) != 1 || len(bodies) != 1 {
		t.Fatalf("seen %+v", *seen)
	}
}

func TestGivesUpWithATypedError(t *testing.T) {
	limited := answer{429, map[string]string{"Retry-After": "0"}, `{"code":"rate_limited","message":"slow","details":[],"request_id":"req_1"}`}
	c, seen, _ := scripted(t, limited, limited, limited, limited)
	_, err := c.ListOrders(context.Background(), nil)
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Status != 429 || apiErr.Code != "rate_limited" || apiErr.RequestID != "req_1" || len(apiErr.Details) != 0 {
		t.Fatalf("err %#v", err)
	}
	if len(*seen) != 4 {
		t.Fatalf("%d attempts, want 4", len(*seen))
	}
}

func TestErrorsCarryCodeMessageDetailsRequestID(t *testing.T) {
	c, _, _ := scripted(t,
		answer{400, nil, `{"code":"validation_failed","message":"The request is invalid.","details":[{"field":"ship_to.postal_code","message":"is required"}],"request_id":"req_9"}`},
		answer{404, nil, `{"code":"not_found","message":"No such order.","details":[],"request_id":"req_8"}`},
	)
	_, err := c.CreateOrder(context.Background(), map[string]any{})
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Code != "validation_failed" || apiErr.Message != "The request is invalid." || apiErr.RequestID != "req_9" {
		t.Fatalf("err %#v", err)
	}
	if d := apiErr.Details[0].(map[string]any); d["field"] != "ship_to.postal_code" {
		t.Fatalf("details %v", apiErr.Details)
	}
	_, err = c.GetOrder(context.Background(), "ord_x")
	if !IsNotFound(err) {
		t.Fatalf("err %v", err)
	}
}

func TestNetworkErrorsRetryAGetAndAKeyedPostButNotAnUnkeyedPost(t *testing.T) {
	attempts := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		attempts++
		if attempts == 1 {
			// Drop the connection without an answer.
			conn, _, _ := w.(http.Hijacker).Hijack()
			conn.Close()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"data":[],"has_more":false,"next_cursor":null}`)
	}))
	defer srv.Close()
	noWait := func(context.Context, time.Duration) error { return nil }
	c, _ := New(Options{BaseURL: srv.URL, Sleep: noWait})
	if _, err := c.ListOrders(context.Background(), nil); err != nil || attempts != 2 {
		t.Fatalf("GET: err %v after %d attempts", err, attempts)
	}
	attempts = 0
	if _, err := c.CreateOrder(context.Background(), map[string]any{}); err != nil || attempts != 2 {
		t.Fatalf("keyed POST: err %v after %d attempts", err, attempts)
	}
	attempts = 0
	unkeyed, _ := New(Options{BaseURL: srv.URL, Sleep: noWait, DisableIdempotencyKeys: true})
	_, err := unkeyed.CreateOrder(context.Background(), map[string]any{})
	var connErr *ConnectionError
	if !errors.As(err, &connErr) || attempts != 1 {
		t.Fatalf("unkeyed POST: err %v after %d attempts", err, attempts)
	}
}

func TestIteratorsFollowCursorsAndKeepTheFilters(t *testing.T) {
	c, seen, _ := scripted(t,
		answer{200, nil, `{"data":[{"id":"a"},{"id":"b"}],"has_more":true,"next_cursor":"c1"}`},
		answer{200, nil, `{"data":[{"id":"c"}],"has_more":false,"next_cursor":null}`},
	)
	all, err := c.IterOrders(&ListOrdersParams{Status: "awaiting_fulfillment", Limit: 2}).All(context.Background())
	if err != nil || len(all) != 3 || all[2].ID != "c" {
		t.Fatalf("all %+v err %v", all, err)
	}
	if q := (*seen)[0].query; q != "limit=2&status=awaiting_fulfillment" {
		t.Fatalf("first query %q", q)
	}
	if q := (*seen)[1].query; q != "cursor=c1&limit=2&status=awaiting_fulfillment" {
		t.Fatalf("second query %q", q)
	}
}

func TestPathParametersAreEscaped(t *testing.T) {
	c, seen, _ := scripted(t)
	c.GetOrder(context.Background(), "ord/../x")
	if p := (*seen)[0].path; p != "/v1/orders/ord%2F..%2Fx" {
		t.Fatalf("path %q", p)
	}
}

func TestANewEnumValueInAResponseBreaksNothing(t *testing.T) {
	c, _, _ := scripted(t, answer{200, nil, `{"id":"shp_1","status":"teleported","brand_new_field":1}`})
	s, err := c.GetShipment(context.Background(), "shp_1")
	if err != nil || s.Status != "teleported" || s.Status.IsKnown() || !ShipmentStatusVoided.IsKnown() {
		t.Fatalf("shipment %+v err %v", s, err)
	}
}

func TestBinaryAnswersAreBytesAndCallReachesAnyOperation(t *testing.T) {
	c, seen, _ := scripted(t, answer{200, map[string]string{"Content-Type": "application/pdf"}, "%PDF-1.7"}, answer{200, nil, `{"id":"ord_1"}`})
	pdf, err := c.GetShipmentLabel(context.Background(), "shp_1", &GetShipmentLabelParams{Format: "pdf_4x6"})
	if err != nil || string(pdf) != "%PDF-1.7" || (*seen)[0].query != "format=pdf_4x6" {
		t.Fatalf("pdf %q err %v", pdf, err)
	}
	var order Order
	if err := c.Call(context.Background(), "getOrder", map[string]string{"id": "ord_1"}, nil, nil, &order); err != nil || order.ID != "ord_1" {
		t.Fatalf("order %+v err %v", order, err)
	}
	if err := c.Call(context.Background(), "noSuchOperation", nil, nil, nil, nil); err == nil {
		t.Fatal("an unknown operation must fail")
	}
}

func TestRetryAfterAsSecondsOrDate(t *testing.T) {
	now := time.Unix(4, 0)
	if d, ok := RetryAfter("2", now); !ok || d != 2*time.Second {
		t.Fatal(d)
	}
	if d, ok := RetryAfter("Thu, 01 Jan 1970 00:00:10 GMT", now); !ok || d != 6*time.Second {
		t.Fatal(d)
	}
	if _, ok := RetryAfter("soon", now); ok {
		t.Fatal("soon")
	}
}

func TestWebhookVectors(t *testing.T) {
	raw, err := os.ReadFile("../conformance/webhook-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Body      string `json:"body"`
		Tolerance int    `json:"tolerance"`
		Vectors   []struct {
			Name    string   `json:"name"`
			Header  string   `json:"header"`
			Secrets []string `json:"secrets"`
			Now     int64    `json:"now"`
			Valid   bool     `json:"valid"`
		} `json:"vectors"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Vectors) < 10 {
		t.Fatalf("%d vectors", len(file.Vectors))
	}
	for _, v := range file.Vectors {
		got := VerifyWebhookAt([]byte(file.Body), v.Header, v.Secrets, time.Duration(file.Tolerance)*time.Second, time.Unix(v.Now, 0))
		if got != v.Valid {
			t.Errorf("%s: got %v, want %v", v.Name, got, v.Valid)
		}
	}
	if !strings.Contains(file.Body, "café") {
		t.Fatal("the body should carry non-ASCII text")
	}
}
