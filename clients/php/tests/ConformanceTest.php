<?php

declare(strict_types=1);

namespace ShippingService\Tests;

use PHPUnit\Framework\TestCase;
use ShippingService\ApiException;
use ShippingService\Client;
use ShippingService\Webhook;

/**
 * The language-neutral conformance scenario (clients/conformance/scenario.json) against a real
 * service. test/clients/conformance.test.ts starts the service, onboards workspaces and runs this
 * with SHIPPING_* variables set; without them it is skipped.
 */
final class ConformanceTest extends TestCase
{
    /** @var array<string, mixed> */
    private array $vars = [];

    public function testConformanceScenario(): void
    {
        if (getenv('SHIPPING_BASE_URL') === false) {
            self::markTestSkipped('SHIPPING_BASE_URL not set: run through test/clients/conformance.test.ts');
        }
        $scenario = json_decode((string) file_get_contents(__DIR__ . '/../../conformance/scenario.json'), true, 512, JSON_THROW_ON_ERROR);
        $this->vars = ['run' => getenv('SHIPPING_RUN_ID'), 'client' => 'php', 'receiver_url' => getenv('SHIPPING_RECEIVER_URL')];
        $client = new Client((string) getenv('SHIPPING_BASE_URL'), (string) getenv('SHIPPING_API_KEY'), (string) getenv('SHIPPING_WORKSPACE_ID'));
        foreach ($scenario['steps'] as $step) {
            $kind = $step['kind'] ?? null;
            if ($kind === 'rate_limit') {
                $this->rateLimit($step);
                continue;
            }
            if ($kind === 'webhook') {
                $this->webhook($client, $step);
                continue;
            }
            for ($i = 1; $i <= ($step['repeat'] ?? 1); $i++) {
                $this->vars['i'] = $i;
                $this->runStep($client, $step);
            }
        }
    }

    private function runStep(Client $client, array $step): void
    {
        $name = $step['name'];
        if (isset($step['expect_error'])) {
            $want = $step['expect_error'];
            try {
                $this->invoke($client, $step);
                self::fail("{$name}: no error");
            } catch (ApiException $e) {
                self::assertSame([$want['status'], $want['code']], [$e->status, $e->errorCode], "{$name}: {$e->getMessage()}");
                self::assertNotSame('', $e->getMessage());
                self::assertNotEmpty($e->requestId);
                self::assertIsArray($e->details);
                if ($want['details_nonempty'] ?? false) {
                    self::assertNotEmpty($e->details, "{$name}: no details");
                }
            }
            return;
        }
        $result = $this->invoke($client, $step);
        if (isset($step['expect_bytes_prefix'])) {
            self::assertIsString($result);
            self::assertStringStartsWith($step['expect_bytes_prefix'], $result, $name);
            return;
        }
        if ($step['iterate'] ?? false) {
            $items = iterator_to_array($result, false);
            self::assertCount($step['expect_count'], $items, $name);
            foreach ($this->subst($step['expect_each_prefix'] ?? []) as $path => $prefix) {
                foreach ($items as $item) {
                    self::assertStringStartsWith($prefix, (string) self::dig($item, $path), $name);
                }
            }
            return;
        }
        foreach ($this->subst($step['expect'] ?? []) as $path => $want) {
            self::assertSame($want, self::dig($result, $path), "{$name}: {$path}");
        }
        foreach ($this->subst($step['expect_prefix'] ?? []) as $path => $prefix) {
            self::assertStringStartsWith($prefix, (string) self::dig($result, $path), "{$name}: {$path}");
        }
        foreach ($step['expect_nonempty'] ?? [] as $path) {
            self::assertNotEmpty(self::dig($result, $path), "{$name}: {$path} is empty");
        }
        foreach ($step['save'] ?? [] as $var => $path) {
            $this->vars[$var] = self::dig($result, $path);
        }
    }

    private function invoke(Client $client, array $step): mixed
    {
        $args = [];
        foreach ($this->subst($step['path'] ?? []) as $param => $value) {
            $args[lcfirst(str_replace('_', '', ucwords($param, '_')))] = $value;
        }
        if (isset($step['body'])) {
            $args['body'] = $this->subst($step['body']);
        }
        if (isset($step['query'])) {
            $args['query'] = $this->subst($step['query']);
        }
        $method = ($step['iterate'] ?? false) ? preg_replace('/^list/', 'iter', $step['call']) : $step['call'];
        return $client->{$method}(...$args);
    }

    private function rateLimit(array $step): void
    {
        $creds = [(string) getenv('SHIPPING_BASE_URL'), (string) getenv('SHIPPING_THROTTLED_API_KEY'), (string) getenv('SHIPPING_THROTTLED_WORKSPACE_ID')];
        $impatient = new Client(...[...$creds, ['max_retries' => 0]]);
        $error = null;
        for ($n = 0; $n < $step['max_calls'] && $error === null; $n++) {
            try {
                $impatient->{$step['call']}();
            } catch (ApiException $e) {
                $error = $e;
            }
        }
        self::assertNotNull($error, "{$step['name']}: no 429 within {$step['max_calls']} calls");
        self::assertSame([$step['expect_error']['status'], $step['expect_error']['code']], [$error->status, $error->errorCode]);
        self::assertNotEmpty($error->requestId);
        self::assertGreaterThan(0, $error->retryAfter());
        // Up to as many calls as it took to be refused, plus one (stopping once the wait is seen):
        // at least one is refused again, so the run only lasts that long if a 429 was waited out.
        $patient = new Client(...$creds);
        $started = microtime(true);
        for ($k = 0; $k <= $n && microtime(true) - $started < $step['expect_min_wait_seconds']; $k++) {
            $patient->{$step['call']}();
        }
        self::assertGreaterThanOrEqual($step['expect_min_wait_seconds'], microtime(true) - $started, 'the retry did not wait for Retry-After');
    }

    private function webhook(Client $client, array $step): void
    {
        $path = $this->subst($step['receiver_path']);
        $receiver = (string) getenv('SHIPPING_RECEIVER_URL');
        $hook = $client->createWebhook(['url' => $receiver . $path, 'events' => $step['events']]);
        $client->testWebhook($hook['id']);
        $received = [];
        for ($deadline = microtime(true) + 60; $received === [] && microtime(true) < $deadline;) {
            $received = json_decode((string) file_get_contents("{$receiver}/_received{$path}"), true, 512, JSON_THROW_ON_ERROR);
            if ($received === []) {
                usleep(200_000);
            }
        }
        self::assertNotEmpty($received, "{$step['name']}: no delivery reached the receiver");
        ['body' => $body, 'signature' => $header] = $received[0];
        self::assertTrue(Webhook::verify($body, $header, ['whsec_not_this_one', $hook['secret']]));
        self::assertFalse(Webhook::verify($body, $header, ['whsec_not_this_one']));
        self::assertFalse(Webhook::verify($body . ' ', $header, $hook['secret']));
        self::assertSame($step['expect_event_type'], json_decode($body, true)['type']);
    }

    private function subst(mixed $value): mixed
    {
        if (is_string($value)) {
            return preg_replace_callback('/\$\{(\w+)\}/', fn (array $m): string => (string) $this->vars[$m[1]], $value);
        }
        if (is_array($value)) {
            return array_map(fn ($v) => $this->subst($v), $value);
        }
        return $value;
    }

    private static function dig(mixed $value, string $path): mixed
    {
        foreach (explode('.', $path) as $part) {
            $value = is_array($value) ? ($value[ctype_digit($part) ? (int) $part : $part] ?? null) : null;
        }
        return $value;
    }
}
