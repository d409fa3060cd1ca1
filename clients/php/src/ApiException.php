<?php

declare(strict_types=1);

namespace ShippingService;

/**
 * A non-2xx answer: the contract's {code, message, details, request_id} plus the status.
 * getMessage() is the service's message, getCode() the HTTP status, getErrorCode() the service's
 * code (e.g. not_found).
 */
class ApiException extends ShippingException
{
    /**
     * @param list<mixed> $details
     * @param array<string, string> $headers lower-cased names
     */
    public function __construct(
        public readonly int $status,
        public readonly string $errorCode,
        string $message,
        public readonly array $details,
        public readonly ?string $requestId,
        public readonly array $headers = [],
    ) {
        parent::__construct($message, $status);
    }

    public function getErrorCode(): string
    {
        return $this->errorCode;
    }

    /** Seconds the service asked to wait (429/503), or null. */
    public function retryAfter(): ?float
    {
        return Client::retryAfterSeconds($this->headers['retry-after'] ?? null);
    }
}
