import type { CarrierRegistry } from '../../carriers/registry.js';
import type { CarrierDefinition } from '../../carriers/types.js';
import { AppError, validationError } from '../../platform/errors.js';
import type { ServiceContext } from '../../platform/context.js';
import type { Executor } from '../../platform/db/types.js';
import type { CarrierGateway } from '../carrier-accounts/index.js';
import type { Order, OrdersService } from '../orders/index.js';
import { returnCustoms } from '../customs/index.js';
import type { CreateShipmentInput, LabelFormatCode, Shipment } from './shipments.schemas.js';
import { shipmentStateError } from './shipments.states.js';
import type { ShipmentAddress, ShipmentRow } from './shipments.tables.js';
import { toShipment } from './shipments.wire.js';
import { resolveReturnCharge, returnServiceOf, returnExpiry, returnOrderView, type ReturnInput, type ReturnSpec } from './shipments.returns.js';
import type { LabelPurchase } from './shipments.purchase.js';

/** What buying a return label needs from the shipments service. */
export interface ReturnPurchaseDeps {
  now(): Date;
  baseUrl(): string;
  carriers: Promise<CarrierRegistry>;
  orders: OrdersService;
  gateway: CarrierGateway;
  purchases: LabelPurchase;
  findShipment(ctx: ServiceContext, id: string): Promise<ShipmentRow>;
  shipFromOf(ctx: ServiceContext, order: Order): Promise<ShipmentAddress>;
}

/**
 * Return labels (docs/api-conventions.md, returns): bought through the purchase saga without
 * moving the order, their addresses swapped. A return names its service: `auto` and `cheapest`
 * choose for outbound parcels only.
 */
export class ReturnPurchase {
  constructor(private readonly deps: ReturnPurchaseDeps) {}

  /**
   * POST /v1/shipments/:id/return: the outbound's addresses swapped, on the outbound's service's
   * return counterpart (or the one named), on the outbound's account when the carrier is the same.
   */
  async forShipment(
    ctx: ServiceContext,
    outboundId: string,
    input: ReturnInput & { label_format?: LabelFormatCode },
    inTransaction?: (trx: Executor, shipment: Shipment) => Promise<void>,
  ): Promise<Shipment> {
    const outbound = await this.deps.findShipment(ctx, outboundId);
    if (outbound.is_return)
      throw new AppError('unprocessable', 'This shipment is itself a return label; make the return from the outbound shipment.', {
        details: [{ field: 'id', message: 'is a return label' }],
      });
    if (outbound.status === 'voided') throw shipmentStateError(outbound.status, 'be returned', 'The shipment is voided; a voided label has nothing to return.');
    const carriers = await this.deps.carriers;
    const serviceCode = input.service_code ?? returnServiceOf(carriers, outbound.service_code);
    const carrier = returnCarrier(carriers, serviceCode);
    const spec: ReturnSpec = {
      ...this.terms(carrier, input),
      returnOf: outbound.id,
      shipFrom: outbound.ship_to,
      shipTo: outbound.ship_from,
      customs: outbound.customs ? returnCustoms(outbound.customs) : null,
    };
    const order = await this.deps.orders.getOrder(ctx, outbound.order_id, { attachments: false });
    // The outbound's account when the carrier is the same and the account still sells, else the carrier's default.
    const sameAccount = carrier.slug === outbound.carrier ? (outbound.carrier_account_id ?? undefined) : undefined;
    const account = await this.deps.gateway
      .accountForPurchase(ctx, carrier.slug, sameAccount)
      .catch(() => this.deps.gateway.accountForPurchase(ctx, carrier.slug, undefined));
    // A multi-piece outbound comes back as one return shipment with a package (and a label page) per piece.
    const pieces = outbound.packages && outbound.packages.length > 1 ? outbound.packages.map((p) => p.parcel) : null;
    const row = await this.deps.purchases.buy(
      ctx,
      returnOrderView({ ...order, parcels: pieces }, spec, outbound.parcel),
      { carrier, serviceCode, account },
      { format: input.label_format ?? (outbound.label_format as LabelFormatCode), addressValidation: 'none', returning: spec },
      inTransaction,
    );
    return toShipment(row, this.deps.baseUrl());
  }

  /** POST /v1/shipments with is_return: a return label for the order itself, its addresses swapped (ship_to → ship_from). */
  async forOrder(ctx: ServiceContext, input: CreateShipmentInput): Promise<Shipment> {
    const carrier = returnCarrier(await this.deps.carriers, input.service_code);
    const order = await this.deps.orders.getOrder(ctx, input.order_id, { attachments: false });
    const spec: ReturnSpec = {
      ...this.terms(carrier, input),
      returnOf: null,
      shipFrom: order.ship_to as ShipmentAddress,
      shipTo: await this.deps.shipFromOf(ctx, order),
      customs: null,
    };
    const account = await this.deps.gateway.accountForPurchase(ctx, carrier.slug, input.carrier_account_id);
    const row = await this.deps.purchases.buy(
      ctx,
      returnOrderView(order, spec, order.parcel),
      { carrier, serviceCode: input.service_code, account },
      { format: input.label_format ?? 'pdf_4x6', addressValidation: 'none', returning: spec },
    );
    return toShipment(row, this.deps.baseUrl());
  }

  /** The return's own terms: who pays, when it expires, the merchant's RMA number and reason. */
  private terms(carrier: CarrierDefinition, input: ReturnInput) {
    return {
      charge: resolveReturnCharge(carrier, input.charge),
      expiresAt: returnExpiry(this.deps.now(), input.expires_in_days),
      rmaNumber: input.rma_number ?? null,
      reason: input.reason ?? null,
    };
  }
}

/** The service codes that ask for a choice, which a return cannot make. */
const CHOOSING = new Set(['auto', 'cheapest']);

function returnCarrier(carriers: CarrierRegistry, serviceCode: string): CarrierDefinition {
  const carrier = CHOOSING.has(serviceCode) ? undefined : carriers.byServiceCode(serviceCode);
  if (!carrier) throw validationError([{ field: 'service_code', message: `must name a service for a return label (unknown service code "${serviceCode}")` }]);
  return carrier;
}
