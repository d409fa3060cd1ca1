<?php

declare(strict_types=1);

// Composer's autoloader when installed; otherwise the same PSR-4 mapping by hand, so the tests
// run from a checkout with only php and phpunit (as CI has them from Debian packages).
if (is_file(__DIR__ . '/../vendor/autoload.php')) {
    require __DIR__ . '/../vendor/autoload.php';
} else {
    spl_autoload_register(static function (string $class): void {
        foreach (['ShippingService\\Tests\\' => __DIR__ . '/', 'ShippingService\\' => __DIR__ . '/../src/'] as $prefix => $dir) {
            if (str_starts_with($class, $prefix)) {
                $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
                if (is_file($file)) {
                    require $file;
                }
                return;
            }
        }
    });
}
