<?php

declare(strict_types=1);

namespace ShippingService\Tests;

use PHPUnit\Framework\TestCase;
use ShippingService\ApiException;
use ShippingService\Client;
use ShippingService\ConnectionException;
use ShippingService\Enum\ShipmentStatus;
use ShippingService\Webhook;

/** The core against scripted answers (an injected transport): keys, retries, errors, pagination, enums. */
final class ClientTest extends TestCase
{
    /** @var list<array{method: string, url: string, headers: array<string, string>, body: ?string}> */
    private array $seen = [];
    /** @var list<float> */
    private array $waits = [];

    /** @param list<array{0: int, 1?: array<string, string>, 2?: string}|\Throwable> $answers */
    private function client(array $answers, array $options = []): Client
    {
        $this->seen = [];
        $this->waits = [];
        $transport = function (string $method, string $url, array $headers, ?string $body) use (&$answers): array {
            $this->seen[] = compact('method', 'url', 'headers', 'body');
            $a = array_shift($answers) ?? [200, [], '{}'];
            if ($a instanceof \Throwable) {
                throw $a;
            }
            return ['status' => $a[0], 'headers' => $a[1] ?? [], 'body' => $a[2] ?? '{}'];
        };
        return new Client('http://svc', 'sk_test_x', 'ws_1', $options + ['transport' => $transport, 'sleep' => function (float $s): void {
            $this->waits[] = $s;
        }]);
    }

    public function testCredentialsAndAFreshIdempotencyKeyPerPost(): void
    {
        $c = $this->client([[201, [], '{"id":"ord_1"}'], [201, [], '{"id":"ord_2"}']]);
        self::assertSame('ord_1', $c->createOrder(['line_items' => []])['id']);
        $c->createOrder(['line_items' => []]);
        self::assertSame('Bearer sk_test_x', $this->seen[0]['headers']['authorization']);
        self::assertSame('ws_1', $this->seen[0]['headers']['x-service-workspace']);
        self::assertSame('{"line_items":[]}', $this->seen[0]['body']);
        self::assertMatchesRegularExpression('/^[0-9a-f-]{36}$/', $this->seen[0]['headers']['idempotency-key']);
        self::assertNotSame($this->seen[0]['headers']['idempotency-key'], $this->seen[1]['headers']['idempotency-key']);
    }

    public function testRetries429And503HonouringRetryAfterWithTheSameKeyAndBody(): void
    {
        $c = $this->client([[429, ['retry-after' => '2'], '{"code":"rate_limited"}'], [503, ['retry-after' => '120']], [503], [200, [], '{"rates":[]}']]);
        self::assertSame(['rates' => []], $c->queryRates(['ship_to' => ['country' => 'US']]));
        self::assertSame([2.0, 30.0, 2.0], $this->waits);
        self::assertCount(1, array_unique(array_map(fn ($r) => $r['headers']['idempotency-key'], $this->seen)));
        self::assertCount(1, array_unique(array_map(fn ($r) => $r['body'], $this->seen)));
    }

    public function testGivesUpWithATypedError(): void
    {
        $limited = [429, ['retry-after' => '0'], '{"code":"rate_limited","message":"slow","details":[],"request_id":"req_1"}'];
        $c = $this->client([$limited, $limited, $limited], ['max_retries' => 2]);
        try {
            $c->listOrders();
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertSame([429, 'rate_limited', 'slow', [], 'req_1', 0.0], [$e->status, $e->errorCode, $e->getMessage(), $e->details, $e->requestId, $e->retryAfter()]);
        }
        self::assertCount(3, $this->seen);
    }

    public function testErrorsCarryCodeMessageDetailsRequestId(): void
    {
        $details = [['field' => 'ship_to.postal_code', 'message' => 'is required']];
        $c = $this->client([[400, [], json_encode(['code' => 'validation_failed', 'message' => 'The request is invalid.', 'details' => $details, 'request_id' => 'req_9'])], [404, [], '{"code":"not_found","message":"No such order.","details":[],"request_id":"req_8"}']]);
        try {
            $c->createOrder([]);
            self::fail('no exception');
        } catch (ApiException $e) {
            self::assertSame(['validation_failed', 'The request is invalid.', $details, 'req_9', 400], [$e->getErrorCode(), $e->getMessage(), $e->details, $e->requestId, $e->getCode()]);
        }
        $this->expectException(ApiException::class);
        $this->expectExceptionCode(404);
        $c->getOrder('ord_x');
    }

    public function testNetworkErrorsRetryAGetAndAKeyedPostButNotAnUnkeyedPost(): void
    {
        $c = $this->client([new ConnectionException('refused'), [200, [], '{"data":[],"has_more":false,"next_cursor":null}']]);
        self::assertSame([], $c->listOrders()['data']);
        $c = $this->client([new ConnectionException('reset'), [201, [], '{"id":"ord_1"}']]);
        self::assertSame('ord_1', $c->createOrder([])['id']);
        self::assertSame($this->seen[0]['headers']['idempotency-key'], $this->seen[1]['headers']['idempotency-key']);
        $c = $this->client([new ConnectionException('reset')], ['idempotency_keys' => false]);
        try {
            $c->createOrder([]);
            self::fail('no exception');
        } catch (ConnectionException) {
            self::assertCount(1, $this->seen);
            self::assertArrayNotHasKey('idempotency-key', $this->seen[0]['headers']);
        }
    }

    public function testIteratorsFollowCursorsAndKeepTheFilters(): void
    {
        $c = $this->client([[200, [], '{"data":[{"id":"a"},{"id":"b"}],"has_more":true,"next_cursor":"c1"}'], [200, [], '{"data":[{"id":"c"}],"has_more":false,"next_cursor":null}']]);
        $ids = array_map(fn ($o) => $o['id'], iterator_to_array($c->iterOrders(['status' => 'awaiting_fulfillment', 'limit' => 2]), false));
        self::assertSame(['a', 'b', 'c'], $ids);
        self::assertSame('http://svc/v1/orders?status=awaiting_fulfillment&limit=2', $this->seen[0]['url']);
        self::assertSame('http://svc/v1/orders?status=awaiting_fulfillment&limit=2&cursor=c1', $this->seen[1]['url']);
    }

    public function testPathParametersAreEscaped(): void
    {
        $c = $this->client([[200]]);
        $c->getOrder('ord/../x');
        self::assertSame('http://svc/v1/orders/ord%2F..%2Fx', $this->seen[0]['url']);
    }

    public function testANewEnumValueInAResponseBreaksNothing(): void
    {
        $c = $this->client([[200, [], '{"id":"shp_1","status":"teleported","brand_new_field":1}']]);
        $shipment = $c->getShipment('shp_1');
        self::assertSame('teleported', $shipment['status']);
        self::assertFalse(ShipmentStatus::isKnown($shipment['status']));
        self::assertTrue(ShipmentStatus::isKnown(ShipmentStatus::VOIDED));
        self::assertSame(1, $shipment['brand_new_field']);
    }

    public function testBinaryAnswersAreStringsAndCallReachesAnyOperation(): void
    {
        $c = $this->client([[200, ['content-type' => 'application/pdf'], '%PDF-1.7'], [200, [], '{"id":"ord_1"}']]);
        self::assertSame('%PDF-1.7', $c->getShipmentLabel('shp_1', ['format' => 'pdf_4x6']));
        self::assertSame('ord_1', $c->call('getOrder', ['id' => 'ord_1'])['id']);
    }

    public function testEveryOperationIsAMethod(): void
    {
        self::assertGreaterThan(100, count(Client::OPERATIONS));
        foreach (array_keys(Client::OPERATIONS) as $id) {
            self::assertTrue(method_exists(Client::class, $id), $id);
        }
    }

    public function testRetryAfterAsSecondsOrDate(): void
    {
        self::assertSame(2.0, Client::retryAfterSeconds('2'));
        self::assertSame(6.0, Client::retryAfterSeconds('Thu, 01 Jan 1970 00:00:10 GMT', 4.0));
        self::assertNull(Client::retryAfterSeconds(null));
        self::assertNull(Client::retryAfterSeconds('soon'));
    }

    public function testWebhookVectors(): void
    {
        $file = json_decode((string) file_get_contents(__DIR__ . '/../../conformance/webhook-vectors.json'), true, 512, JSON_THROW_ON_ERROR);
        self::assertGreaterThanOrEqual(10, count($file['vectors']));
        foreach ($file['vectors'] as $v) {
            self::assertSame($v['valid'], Webhook::verify($file['body'], $v['header'], $v['secrets'], $file['tolerance'], $v['now']), $v['name']);
        }
        self::assertTrue(Webhook::verify($file['body'], $file['vectors'][0]['header'], 'whsec_a', 300, $file['vectors'][0]['now']));
        self::assertFalse(Webhook::verify($file['body'], null, 'whsec_a'));
    }
}
