<?php

declare(strict_types=1);

namespace ShippingService;

use ShippingService\Generated\Operations;

/**
 * A client of the shipping service API. Every operation is a method (Generated\Operations, from
 * `npm run clients`); this class is the hand-written core: credentials, an Idempotency-Key on
 * every POST, retries honouring Retry-After, typed errors and pagination. Answers are decoded
 * JSON arrays, so fields and enum values the service adds later pass through untouched.
 */
final class Client
{
    use Operations;

    public const VERSION = '0.1.0';

    private string $baseUrl;
    /** @var array<string, string> */
    private array $headers;
    private int $maxRetries;
    private float $baseDelay;
    private float $maxDelay;
    private bool $idempotencyKeys;
    /** @var callable(string, string, array<string, string>, ?string): array{status: int, headers: array<string, string>, body: string} */
    private $transport;
    /** @var callable(float): void */
    private $sleep;

    /**
     * @param array{environment?: string, max_retries?: int, base_delay?: float, max_delay?: float, timeout?: float, idempotency_keys?: bool, transport?: callable, sleep?: callable} $options
     *   transport: fn (string $method, string $url, array $headers, ?string $body): array{status, headers, body},
     *   throwing ConnectionException when there is no answer (the default uses ext-curl).
     */
    public function __construct(string $baseUrl, ?string $apiKey = null, ?string $workspaceId = null, array $options = [])
    {
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->headers = ['accept' => 'application/json', 'user-agent' => 'shipping-service-php/' . self::VERSION];
        if ($apiKey !== null && $apiKey !== '') {
            $this->headers['authorization'] = 'Bearer ' . $apiKey;
        }
        if ($workspaceId !== null && $workspaceId !== '') {
            $this->headers['x-service-workspace'] = $workspaceId;
        }
        if (isset($options['environment'])) {
            $this->headers['x-service-environment'] = $options['environment'];
        }
        $this->maxRetries = $options['max_retries'] ?? 3;
        $this->baseDelay = $options['base_delay'] ?? 0.5;
        $this->maxDelay = $options['max_delay'] ?? 30.0;
        $this->idempotencyKeys = $options['idempotency_keys'] ?? true;
        $timeout = $options['timeout'] ?? 30.0;
        $this->transport = $options['transport'] ?? static fn (string $method, string $url, array $headers, ?string $body): array => self::curl($method, $url, $headers, $body, $timeout);
        $this->sleep = $options['sleep'] ?? static function (float $seconds): void {
            usleep((int) round($seconds * 1_000_000));
        };
    }

    /**
     * Any operation by its operationId in openapi.json.
     *
     * @param array<string, string> $pathParams
     * @param array<string, mixed> $query
     */
    public function call(string $operationId, array $pathParams = [], array $query = [], ?array $body = null, ?string $idempotencyKey = null): mixed
    {
        if (!isset(self::OPERATIONS[$operationId])) {
            throw new \InvalidArgumentException("unknown operation {$operationId}");
        }
        [$method, $path] = self::OPERATIONS[$operationId];
        return $this->request($method, $path, $pathParams, $query, $body, $idempotencyKey, 'json');
    }

    /** Retry-After as seconds or an HTTP date, in seconds; null when absent or unreadable. */
    public static function retryAfterSeconds(?string $header, ?float $now = null): ?float
    {
        if ($header === null || trim($header) === '') {
            return null;
        }
        if (is_numeric(trim($header))) {
            return max(0.0, (float) trim($header));
        }
        $at = strtotime($header);
        return $at === false ? null : max(0.0, $at - ($now ?? microtime(true)));
    }

    protected function request(string $method, string $path, array $pathParams, array $query, ?array $body, ?string $idempotencyKey, string $answer): mixed
    {
        foreach ($pathParams as $name => $value) {
            if ($value === '') {
                throw new \InvalidArgumentException("{$name} is required");
            }
            $path = str_replace('{' . $name . '}', rawurlencode($value), $path);
        }
        $params = [];
        foreach ($query as $name => $value) {
            if ($value === null) {
                continue;
            }
            $params[$name] = is_bool($value) ? ($value ? 'true' : 'false') : (string) $value;
        }
        $url = $this->baseUrl . $path . ($params === [] ? '' : '?' . http_build_query($params, '', '&', PHP_QUERY_RFC3986));
        $headers = $this->headers;
        $payload = null;
        if ($body !== null) {
            $payload = json_encode($body === [] ? new \stdClass() : $body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            $headers['content-type'] = 'application/json';
        }
        if ($method === 'POST' && ($idempotencyKey !== null || $this->idempotencyKeys)) {
            // Fixed before the first attempt: every retry replays the same request, answered once.
            $headers['idempotency-key'] = $idempotencyKey ?? self::uuid();
        }
        // Without a key a POST lost in transit may have been processed: only a GET, or a POST
        // the service can deduplicate, is sent again after a network error.
        $replayable = $method === 'GET' || $method === 'HEAD' || isset($headers['idempotency-key']);
        for ($attempt = 0; ; $attempt++) {
            try {
                $response = ($this->transport)($method, $url, $headers, $payload);
            } catch (ConnectionException $e) {
                if (!$replayable || $attempt >= $this->maxRetries) {
                    throw $e;
                }
                ($this->sleep)(min($this->baseDelay * 2 ** $attempt, $this->maxDelay));
                continue;
            }
            if (in_array($response['status'], [429, 503], true) && $attempt < $this->maxRetries) {
                $wait = self::retryAfterSeconds($response['headers']['retry-after'] ?? null) ?? $this->baseDelay * 2 ** $attempt;
                ($this->sleep)(min($wait, $this->maxDelay));
                continue;
            }
            break;
        }
        if ($response['status'] >= 400) {
            throw self::errorFrom($response);
        }
        if ($answer === 'none' || $response['status'] === 204) {
            return null;
        }
        if ($answer === 'binary' || $answer === 'text') {
            return $response['body'];
        }
        return json_decode($response['body'], true, 512, JSON_THROW_ON_ERROR);
    }

    protected function paginate(callable $fetch, array $query): \Generator
    {
        unset($query['cursor']);
        $cursor = null;
        do {
            $page = $fetch($cursor === null ? $query : $query + ['cursor' => $cursor]);
            foreach ($page['data'] as $item) {
                yield $item;
            }
            $cursor = ($page['has_more'] ?? false) ? ($page['next_cursor'] ?? null) : null;
        } while ($cursor !== null && $cursor !== '');
    }

    /** @param array{status: int, headers: array<string, string>, body: string} $response */
    private static function errorFrom(array $response): ApiException
    {
        $body = json_decode($response['body'], true);
        $body = is_array($body) ? $body : [];
        $details = $body['details'] ?? [];
        return new ApiException(
            $response['status'],
            is_string($body['code'] ?? null) ? $body['code'] : 'unknown',
            is_string($body['message'] ?? null) ? $body['message'] : 'HTTP ' . $response['status'],
            is_array($details) && array_is_list($details) ? $details : [$details],
            is_string($body['request_id'] ?? null) ? $body['request_id'] : ($response['headers']['x-request-id'] ?? null),
            $response['headers'],
        );
    }

    private static function uuid(): string
    {
        $b = random_bytes(16);
        $b[6] = chr(ord($b[6]) & 0x0f | 0x40);
        $b[8] = chr(ord($b[8]) & 0x3f | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($b), 4));
    }

    /**
     * @param array<string, string> $headers
     * @return array{status: int, headers: array<string, string>, body: string}
     */
    private static function curl(string $method, string $url, array $headers, ?string $body, float $timeout): array
    {
        $handle = curl_init($url);
        $received = [];
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = "{$name}: {$value}";
        }
        curl_setopt_array($handle, [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_TIMEOUT_MS => (int) ($timeout * 1000),
            CURLOPT_HEADERFUNCTION => static function ($h, string $line) use (&$received): int {
                $pair = explode(':', $line, 2);
                if (count($pair) === 2) {
                    $received[strtolower(trim($pair[0]))] = trim($pair[1]);
                }
                return strlen($line);
            },
        ]);
        if ($body !== null) {
            curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
        }
        $result = curl_exec($handle);
        if ($result === false) {
            $error = curl_error($handle);
            curl_close($handle);
            throw new ConnectionException("{$method} {$url}: {$error}");
        }
        $status = curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        return ['status' => $status, 'headers' => $received, 'body' => $result];
    }
}
