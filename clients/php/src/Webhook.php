<?php

declare(strict_types=1);

namespace ShippingService;

/** Webhook signature checks: X-Service-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]. */
final class Webhook
{
    /**
     * True when a v1 signature is the HMAC-SHA256 of "<t>.<raw body>" under one of $secrets and
     * t is within $tolerance seconds of now. Pass the body exactly as received
     * (file_get_contents('php://input')): re-encoded JSON will not match.
     *
     * @param string|list<string> $secrets during a rotation the service signs with both secrets
     */
    public static function verify(string $rawBody, ?string $header, string|array $secrets, int $tolerance = 300, ?int $now = null): bool
    {
        if ($header === null || $header === '') {
            return false;
        }
        $timestamp = null;
        $signatures = [];
        foreach (explode(',', $header) as $part) {
            $pair = explode('=', $part, 2);
            $key = trim($pair[0]);
            $value = trim($pair[1] ?? '');
            if ($key === 't' && ctype_digit($value)) {
                $timestamp = (int) $value;
            } elseif ($key === 'v1' && preg_match('/^[0-9a-fA-F]{64}$/', $value) === 1) {
                $signatures[] = strtolower($value);
            }
        }
        if ($timestamp === null || $signatures === []) {
            return false;
        }
        if (abs(($now ?? time()) - $timestamp) > $tolerance) {
            return false;
        }
        $ok = false;
        foreach (is_string($secrets) ? [$secrets] : $secrets as $secret) {
            $expected = hash_hmac('sha256', $timestamp . '.' . $rawBody, $secret);
            foreach ($signatures as $signature) {
                // No early exit: timing says nothing about which candidate matched.
                $ok = hash_equals($expected, $signature) || $ok;
            }
        }
        return $ok;
    }
}
