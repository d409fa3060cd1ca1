// Placeholder of the Channel contract's order shape until the protocol layer lands (replaced at merge).
export interface ChannelOrder {
  external_id: string;
  external_number: string | null;
  version: string;
  platform_status: string;
  cancelled: boolean;
  cancelled_at: string | null;
  currency: string | null;
  customer: { name: string | null; email: string | null; phone: string | null };
  ship_to: { name?: string; company?: string; street1?: string; street2?: string; city?: string; state?: string; postal_code?: string; country?: string; phone?: string; email?: string };
  line_items: {
    external_line_id: string;
    sku: string | null;
    name: string | null;
    quantity: number;
    unit_price: { amount: number; currency: string } | null;
    weight_oz: number | null;
    requires_shipping: boolean;
  }[];
  shipping_line: { code: string | null; title: string | null } | null;
  fulfillments: { id: string; status: string; tracking_numbers: string[] }[];
}
