package shipping

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The language-neutral conformance scenario (clients/conformance/scenario.json) against a real
// service. test/clients/conformance.test.ts starts the service, onboards workspaces and runs this
// with SHIPPING_* variables set; without them it is skipped. Steps call operations through Call
// (by operationId), which every generated method also goes through.

type step struct {
	Name              string            `json:"name"`
	Kind              string            `json:"kind"`
	Call              string            `json:"call"`
	Path              map[string]string `json:"path"`
	Query             map[string]any    `json:"query"`
	Body              any               `json:"body"`
	Repeat            int               `json:"repeat"`
	Iterate           bool              `json:"iterate"`
	Expect            map[string]any    `json:"expect"`
	ExpectPrefix      map[string]string `json:"expect_prefix"`
	ExpectNonempty    []string          `json:"expect_nonempty"`
	ExpectEachPrefix  map[string]string `json:"expect_each_prefix"`
	ExpectCount       int               `json:"expect_count"`
	ExpectBytesPrefix string            `json:"expect_bytes_prefix"`
	ExpectError       map[string]any    `json:"expect_error"`
	Save              map[string]string `json:"save"`
	MaxCalls          int               `json:"max_calls"`
	MinWait           float64           `json:"expect_min_wait_seconds"`
	ReceiverPath      string            `json:"receiver_path"`
	Events            []string          `json:"events"`
	EventType         string            `json:"expect_event_type"`
}

var varPattern = regexp.MustCompile(`\$\{(\w+)\}`)

type scenarioRun struct {
	t    *testing.T
	vars map[string]any
}

func (r *scenarioRun) subst(v any) any {
	switch x := v.(type) {
	case string:
		return varPattern.ReplaceAllStringFunc(x, func(m string) string { return fmt.Sprint(r.vars[m[2:len(m)-1]]) })
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = r.subst(e)
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = r.subst(e)
		}
		return out
	}
	return v
}

func (r *scenarioRun) str(s string) string { return r.subst(s).(string) }

func dig(v any, path string) any {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i >= len(x) {
				return nil
			}
			v = x[i]
		default:
			return nil
		}
	}
	return v
}

func empty(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case string:
		return x == ""
	case []any:
		return len(x) == 0
	case map[string]any:
		return len(x) == 0
	}
	return false
}

func (r *scenarioRun) args(s step) (map[string]string, url.Values) {
	path := map[string]string{}
	for k, v := range s.Path {
		path[k] = r.str(v)
	}
	query := url.Values{}
	for k, v := range s.Query {
		query.Set(k, fmt.Sprint(r.subst(v)))
	}
	return path, query
}

func (r *scenarioRun) run(ctx context.Context, c *Client, s step) {
	t := r.t
	path, query := r.args(s)
	var body any
	if s.Body != nil {
		body = r.subst(s.Body)
	}
	if s.ExpectError != nil {
		err := c.Call(ctx, s.Call, path, query, body, nil)
		var apiErr *APIError
		if !errors.As(err, &apiErr) {
			t.Fatalf("%s: want an APIError, got %v", s.Name, err)
		}
		if apiErr.Status != int(s.ExpectError["status"].(float64)) || apiErr.Code != s.ExpectError["code"] || apiErr.Message == "" || apiErr.RequestID == "" || apiErr.Details == nil {
			t.Fatalf("%s: %#v", s.Name, apiErr)
		}
		if s.ExpectError["details_nonempty"] == true && len(apiErr.Details) == 0 {
			t.Fatalf("%s: no details", s.Name)
		}
		return
	}
	if s.ExpectBytesPrefix != "" {
		var data []byte
		if err := c.Call(ctx, s.Call, path, query, body, &data); err != nil || !bytes.HasPrefix(data, []byte(s.ExpectBytesPrefix)) {
			t.Fatalf("%s: %q %v", s.Name, data[:min(len(data), 20)], err)
		}
		return
	}
	if s.Iterate {
		items, err := c.CallPages(s.Call, path, query).All(ctx)
		if err != nil || len(items) != s.ExpectCount {
			t.Fatalf("%s: %d items, err %v", s.Name, len(items), err)
		}
		for p, prefix := range s.ExpectEachPrefix {
			for _, item := range items {
				if !strings.HasPrefix(fmt.Sprint(dig(item, p)), r.str(prefix)) {
					t.Fatalf("%s: %s is %v", s.Name, p, dig(item, p))
				}
			}
		}
		return
	}
	var result any
	if err := c.Call(ctx, s.Call, path, query, body, &result); err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	for p, want := range s.Expect {
		if got := dig(result, p); !reflect.DeepEqual(got, r.subst(want)) {
			t.Fatalf("%s: %s is %#v, want %#v", s.Name, p, got, r.subst(want))
		}
	}
	for p, prefix := range s.ExpectPrefix {
		if got := fmt.Sprint(dig(result, p)); !strings.HasPrefix(got, r.str(prefix)) {
			t.Fatalf("%s: %s is %q, want prefix %q", s.Name, p, got, r.str(prefix))
		}
	}
	for _, p := range s.ExpectNonempty {
		if empty(dig(result, p)) {
			t.Fatalf("%s: %s is empty", s.Name, p)
		}
	}
	for name, p := range s.Save {
		r.vars[name] = dig(result, p)
	}
}

func min(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func (r *scenarioRun) rateLimit(ctx context.Context, s step) {
	t := r.t
	opts := Options{BaseURL: os.Getenv("SHIPPING_BASE_URL"), APIKey: os.Getenv("SHIPPING_THROTTLED_API_KEY"), WorkspaceID: os.Getenv("SHIPPING_THROTTLED_WORKSPACE_ID")}
	impatientOpts := opts
	impatientOpts.MaxRetries = -1
	impatient, _ := New(impatientOpts)
	var apiErr *APIError
	calls := 0
	for ; calls < s.MaxCalls && apiErr == nil; calls++ {
		if err := impatient.Call(ctx, s.Call, nil, nil, nil, nil); err != nil && !errors.As(err, &apiErr) {
			t.Fatalf("%s: %v", s.Name, err)
		}
	}
	if apiErr == nil {
		t.Fatalf("%s: no 429 within %d calls", s.Name, s.MaxCalls)
	}
	if apiErr.Status != int(s.ExpectError["status"].(float64)) || apiErr.Code != s.ExpectError["code"] || apiErr.RequestID == "" || apiErr.RetryAfter() <= 0 {
		t.Fatalf("%s: %#v", s.Name, apiErr)
	}
	// Up to as many calls as it took to be refused, plus one (stopping once the wait is seen): at
	// least one is refused again, so the run only lasts that long if a 429 was waited out.
	patient, _ := New(opts)
	started := time.Now()
	for k := 0; k <= calls && time.Since(started).Seconds() < s.MinWait; k++ {
		if err := patient.Call(ctx, s.Call, nil, nil, nil, nil); err != nil {
			t.Fatalf("%s: the patient client failed: %v", s.Name, err)
		}
	}
	if waited := time.Since(started).Seconds(); waited < s.MinWait {
		t.Fatalf("%s: the retry waited %.2fs", s.Name, waited)
	}
}

func (r *scenarioRun) webhook(ctx context.Context, c *Client, s step) {
	t := r.t
	path := r.str(s.ReceiverPath)
	receiver := os.Getenv("SHIPPING_RECEIVER_URL")
	hook, err := c.CreateWebhook(ctx, map[string]any{"url": receiver + path, "events": s.Events})
	if err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	secret, _ := hook["secret"].(string)
	id, _ := hook["id"].(string)
	if _, err := c.TestWebhook(ctx, id); err != nil {
		t.Fatalf("%s: %v", s.Name, err)
	}
	var received []struct{ Body, Signature string }
	for deadline := time.Now().Add(60 * time.Second); len(received) == 0 && time.Now().Before(deadline); {
		res, err := http.Get(receiver + "/_received" + path)
		if err != nil {
			t.Fatal(err)
		}
		json.NewDecoder(res.Body).Decode(&received)
		res.Body.Close()
		if len(received) == 0 {
			time.Sleep(200 * time.Millisecond)
		}
	}
	if len(received) == 0 {
		deliveries, err := c.ListWebhookDeliveries(ctx, id, nil)
		t.Fatalf("%s: no delivery reached the receiver (the service's log: %+v %v)", s.Name, deliveries, err)
	}
	body, header := []byte(received[0].Body), received[0].Signature
	if !VerifyWebhook(body, header, []string{"whsec_not_this_one", secret}, DefaultTolerance) {
		t.Fatalf("%s: the signature did not verify", s.Name)
	}
	if VerifyWebhook(body, header, []string{"whsec_not_this_one"}, DefaultTolerance) || VerifyWebhook(append(body, ' '), header, []string{secret}, DefaultTolerance) {
		t.Fatalf("%s: a wrong secret or a changed body verified", s.Name)
	}
	var event struct{ Type string }
	if json.Unmarshal(body, &event); event.Type != s.EventType {
		t.Fatalf("%s: event type %q", s.Name, event.Type)
	}
}

func TestConformance(t *testing.T) {
	if os.Getenv("SHIPPING_BASE_URL") == "" {
		t.Skip("SHIPPING_BASE_URL not set: run through test/clients/conformance.test.ts")
	}
	raw, err := os.ReadFile("../conformance/scenario.json")
	if err != nil {
		t.Fatal(err)
	}
	var scenario struct{ Steps []step }
	if err := json.Unmarshal(raw, &scenario); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{BaseURL: os.Getenv("SHIPPING_BASE_URL"), APIKey: os.Getenv("SHIPPING_API_KEY"), WorkspaceID: os.Getenv("SHIPPING_WORKSPACE_ID")})
	if err != nil {
		t.Fatal(err)
	}
	r := &scenarioRun{t: t, vars: map[string]any{"run": os.Getenv("SHIPPING_RUN_ID"), "client": "go", "receiver_url": os.Getenv("SHIPPING_RECEIVER_URL")}}
	ctx := context.Background()
	for _, s := range scenario.Steps {
		switch s.Kind {
		case "rate_limit":
			r.rateLimit(ctx, s)
		case "webhook":
			r.webhook(ctx, c, s)
		default:
			repeat := s.Repeat
			if repeat == 0 {
				repeat = 1
			}
			for i := 1; i <= repeat; i++ {
				r.vars["i"] = i
				r.run(ctx, c, s)
			}
		}
	}
}
