<?php

declare(strict_types=1);

namespace ShippingService;

/** The request got no answer (refused, reset, timed out), after retries. */
class ConnectionException extends ShippingException
{
}
