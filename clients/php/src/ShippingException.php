<?php

declare(strict_types=1);

namespace ShippingService;

/** Base class of everything this client throws. */
class ShippingException extends \RuntimeException
{
}
