package shipping

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"math"
	"strconv"
	"strings"
	"time"
)

// DefaultTolerance is the replay window of VerifyWebhook: five minutes.
const DefaultTolerance = 300 * time.Second

// VerifyWebhook checks an `X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]` header: true when
// a v1 is the HMAC-SHA256 of "<t>.<raw body>" under one of secrets (during a rotation the service
// signs with both) and t is within tolerance of now. Pass the body exactly as received.
func VerifyWebhook(rawBody []byte, header string, secrets []string, tolerance time.Duration) bool {
	return VerifyWebhookAt(rawBody, header, secrets, tolerance, time.Now())
}

// VerifyWebhookAt is VerifyWebhook with the current time given (for tests).
func VerifyWebhookAt(rawBody []byte, header string, secrets []string, tolerance time.Duration, now time.Time) bool {
	var timestamp int64 = -1
	var signatures [][]byte
	for _, part := range strings.Split(header, ",") {
		key, value, _ := strings.Cut(part, "=")
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		switch key {
		case "t":
			if t, err := strconv.ParseInt(value, 10, 64); err == nil && t >= 0 && !strings.HasPrefix(value, "+") {
				timestamp = t
			}
		case "v1":
			if sig, err := hex.DecodeString(value); err == nil && len(sig) == sha256.Size {
				signatures = append(signatures, sig)
			}
		}
	}
	if timestamp < 0 || len(signatures) == 0 {
		return false
	}
	if math.Abs(float64(now.Unix()-timestamp)) > tolerance.Seconds() {
		return false
	}
	ok := false
	for _, secret := range secrets {
		mac := hmac.New(sha256.New, []byte(secret))
		mac.Write([]byte(strconv.FormatInt(timestamp, 10) + "."))
		mac.Write(rawBody)
		expected := mac.Sum(nil)
		for _, sig := range signatures {
			// No early exit: timing says nothing about which candidate matched.
			if hmac.Equal(expected, sig) {
				ok = true
			}
		}
	}
	return ok
}
