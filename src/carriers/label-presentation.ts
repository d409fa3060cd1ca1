// The package's core without its node entry, which loads every locale's names (~0.9 MB): only
// codes are looked up here (docs/architecture.md, "Start-up").
import countries from 'i18n-iso-countries/index.js';
import type { Address, LabelPresentation } from './types.js';

/**
 * Pieces carriers' label presentations share (pure; a carrier folder may use them or write its
 * own). The platform sanitises and fits every string when it draws the label.
 */

/** Grouped in fours, as most carriers print a tracking number (`7489 1234 5678`). */
export function groupInFours(trackingNumber: string): string {
  return trackingNumber.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The GS1 ship-to postal string `421 <ISO numeric country> <postal code>` (UPS, FedEx). */
export function gs1PostalRouting(shipTo: Address): string {
  const country = (shipTo.country ?? '').toUpperCase();
  const numeric = countries.alpha2ToNumeric(country) ?? '000';
  return `421 ${numeric} ${(shipTo.postal_code ?? '').toUpperCase()}`.trim();
}

/** A presentation for a carrier with no conventions of its own: Code 128 of the number, GS1 postal routing. */
export function plainLabelPresentation(heading = 'TRACKING #'): LabelPresentation {
  return {
    heading,
    routingCode: gs1PostalRouting,
    barcode: (trackingNumber) => ({ symbology: 'code128', text: trackingNumber }),
    displayTrackingNumber: groupInFours,
  };
}
