module github.com/shipping-service/shipping-service/clients/go

go 1.19
