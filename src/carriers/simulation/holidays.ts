import type { UsHoliday } from '../types.js';

/** USPS closes on all eleven federal holidays. */
export const FEDERAL_HOLIDAYS: readonly UsHoliday[] = [
  'new_years_day',
  'mlk_day',
  'washingtons_birthday',
  'memorial_day',
  'juneteenth',
  'independence_day',
  'labor_day',
  'columbus_day',
  'veterans_day',
  'thanksgiving_day',
  'christmas_day',
];

/** The six holidays on which UPS, FedEx and DHL Express neither pick up nor deliver. */
export const PRIVATE_CARRIER_HOLIDAYS: readonly UsHoliday[] = [
  'new_years_day',
  'memorial_day',
  'independence_day',
  'labor_day',
  'thanksgiving_day',
  'christmas_day',
];
