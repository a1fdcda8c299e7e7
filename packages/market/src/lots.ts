import { isoDate } from '@vyuha/core';
import type { IsoDate } from '@vyuha/core';
import type { OptionUnderlying } from './index-configs';

/**
 * A lot-size revision: contracts expiring on or after `firstExpiry`, traded on or after
 * `effectiveFrom`, carry `lotSize`. Contracts expiring earlier keep the lot they were listed with
 * until they expire, so during a transition two lot sizes trade at once. A contract master or a
 * bhavcopy (`NewBrdLotQty`) gives the per-contract value, which wins over this schedule.
 */
export interface LotRevision {
  readonly symbol: OptionUnderlying;
  readonly effectiveFrom: IsoDate;
  readonly firstExpiry: IsoDate;
  readonly lotSize: number;
}

/** Quantity freeze (largest single order the exchange accepts, in units) from a date on. */
export interface FreezeQuantityRevision {
  readonly symbol: OptionUnderlying;
  readonly from: IsoDate;
  readonly freezeQuantity: number;
}

/** What bounds one order of one contract: its lot and the exchange's freeze quantity, in units. */
export interface OrderLimits {
  readonly lotSize: number;
  readonly freezeQuantity: number;
}

/** The contract whose lot or limits are asked for; without `expiry`, a contract listed on `tradeDate`. */
export interface ContractOnDate {
  readonly symbol: OptionUnderlying;
  readonly tradeDate: IsoDate;
  readonly expiry?: IsoDate;
}

/** The exchange accepts at most this many slices of one order from the platform. */
export const MAX_ORDER_SLICES = 10;

function lots(symbol: OptionUnderlying, rows: ReadonlyArray<readonly [string, string, number]>): LotRevision[] {
  return rows.map(([effectiveFrom, firstExpiry, lotSize]) => ({ symbol, effectiveFrom: isoDate(effectiveFrom), firstExpiry: isoDate(firstExpiry), lotSize }));
}

// [effective from (trade date), first expiry carrying the new lot, lot]. The first row of each
// symbol is the lot in force when our data starts (or at launch). From NSE/BSE circulars:
// Mar-2020 (BANKNIFTY 25 from the Jul-2020 series), Mar-2021 (NIFTY 50 from Jul-2021),
// Apr-2023 (BANKNIFTY 15 from Jul-2023), Apr-2024 (NIFTY 25 from 2-May; FINNIFTY and MIDCPNIFTY
// from the July monthly), Oct-2024 (SEBI's Rs 15 lakh minimum: new contracts from 20-Nov-2024;
// old weekly and monthly contracts ran out in December), Mar-2025 (BANKNIFTY 35 and MIDCPNIFTY
// 140 from the July monthly), Oct-2025 (new lots for every expiry after 30-Dec-2025).
export const LOT_REVISIONS: readonly LotRevision[] = [
  ...lots('NIFTY', [
    ['2000-01-01', '2000-01-01', 75], ['2021-04-30', '2021-07-29', 50], ['2024-04-26', '2024-05-02', 25],
    ['2024-11-20', '2025-01-01', 75], ['2025-10-28', '2025-12-31', 65],
  ]),
  ...lots('BANKNIFTY', [
    ['2000-01-01', '2000-01-01', 20], ['2020-05-04', '2020-07-30', 25], ['2023-04-28', '2023-07-27', 15],
    ['2024-11-20', '2025-01-01', 30], ['2025-04-25', '2025-07-31', 35], ['2025-10-28', '2025-12-31', 30],
  ]),
  ...lots('FINNIFTY', [
    ['2021-01-11', '2021-01-11', 40], ['2024-04-26', '2024-07-30', 25], ['2024-11-20', '2025-01-01', 65],
    ['2025-10-28', '2025-12-31', 60],
  ]),
  ...lots('MIDCPNIFTY', [
    ['2022-01-24', '2022-01-24', 75], ['2024-04-26', '2024-07-29', 50], ['2024-11-20', '2025-01-01', 120],
    ['2025-04-25', '2025-07-31', 140], ['2025-10-28', '2025-12-31', 120],
  ]),
  ...lots('SENSEX', [['2023-05-15', '2023-05-15', 10], ['2024-11-20', '2025-01-01', 20]]),
];

function freeze(symbol: OptionUnderlying, rows: ReadonlyArray<readonly [string, number]>): FreezeQuantityRevision[] {
  return rows.map(([from, freezeQuantity]) => ({ symbol, from: isoDate(from), freezeQuantity }));
}

// Known from NSE circulars effective 1-Aug-2024, 1-Jul-2025, 1-Sep-2025 and 3-Nov-2025; SENSEX's
// 1,000 is only known as of Feb-2026. Earlier dates have no value rather than a guessed one.
export const FREEZE_QUANTITY_REVISIONS: readonly FreezeQuantityRevision[] = [
  ...freeze('NIFTY', [['2024-08-01', 1_800]]),
  ...freeze('BANKNIFTY', [['2024-08-01', 900], ['2025-07-01', 600], ['2025-09-01', 900], ['2025-11-03', 600]]),
  ...freeze('FINNIFTY', [['2024-08-01', 1_800]]),
  ...freeze('MIDCPNIFTY', [['2024-08-01', 2_800]]),
  ...freeze('SENSEX', [['2026-02-01', 1_000]]),
];

/** Far enough that "no expiry given" means a contract listed on the trade date. */
const NEWEST_CONTRACT = isoDate('9999-12-31');

/**
 * Units per lot of a contract on a trade date; old contracts keep their lot until they expire.
 * @example lotSize({ symbol: 'NIFTY', tradeDate: isoDate('2024-12-02'), expiry: isoDate('2024-12-26') }) // 25
 */
export function lotSize(contract: ContractOnDate): number {
  const expiry = contract.expiry ?? NEWEST_CONTRACT;
  if (expiry < contract.tradeDate) throw new RangeError(`expiry ${expiry} is before tradeDate ${contract.tradeDate}`);
  const revision = LOT_REVISIONS
    .filter((row) => row.symbol === contract.symbol && row.effectiveFrom <= contract.tradeDate && row.firstExpiry <= expiry)
    .at(-1);
  if (revision === undefined) throw new RangeError(`No lot size is known for ${contract.symbol} on ${contract.tradeDate}`);
  return revision.lotSize;
}

/** The freeze quantity in force on a date, or undefined where the schedule does not reach. */
export function freezeQuantity(symbol: OptionUnderlying, tradeDate: IsoDate): number | undefined {
  return FREEZE_QUANTITY_REVISIONS.filter((row) => row.symbol === symbol && row.from <= tradeDate).at(-1)?.freezeQuantity;
}

/** Lot and freeze quantity of a contract from the schedules; an error names what is unknown. */
export function orderLimitsOf(contract: ContractOnDate): OrderLimits {
  const freezeAt = freezeQuantity(contract.symbol, contract.tradeDate);
  if (freezeAt === undefined) throw new RangeError(`No freeze quantity is known for ${contract.symbol} on ${contract.tradeDate}`);
  return { lotSize: lotSize(contract), freezeQuantity: freezeAt };
}

function requirePositiveInteger(value: number, field: string): void {
  if (!Number.isSafeInteger(value) || value <= 0) throw new RangeError(`${field} must be a positive whole number, got ${value}`);
}

/**
 * The largest order quantity the exchange accepts: the largest lot multiple not above the freeze.
 * @example maxOrderQuantity({ lotSize: 65, freezeQuantity: 1_800 }) // 1755
 */
export function maxOrderQuantity(limits: OrderLimits): number {
  requirePositiveInteger(limits.lotSize, 'lotSize');
  requirePositiveInteger(limits.freezeQuantity, 'freezeQuantity');
  const quantity = Math.floor(limits.freezeQuantity / limits.lotSize) * limits.lotSize;
  if (quantity === 0) throw new RangeError(`freezeQuantity ${limits.freezeQuantity} is below one lot of ${limits.lotSize}`);
  return quantity;
}

/**
 * Splits an order of whole lots into slices the exchange accepts (full slices first, the rest
 * last), refusing what would take more than 10 slices.
 * @example sliceOrder(3_900, { lotSize: 65, freezeQuantity: 1_800 }) // [1755, 1755, 390]
 */
export function sliceOrder(quantity: number, limits: OrderLimits): number[] {
  requirePositiveInteger(quantity, 'quantity');
  const largest = maxOrderQuantity(limits);
  if (quantity % limits.lotSize !== 0) throw new RangeError(`quantity ${quantity} is not a multiple of the lot size ${limits.lotSize}`);
  const sliceCount = Math.ceil(quantity / largest);
  if (sliceCount > MAX_ORDER_SLICES) {
    throw new RangeError(`quantity ${quantity} needs ${sliceCount} slices of at most ${largest}; the limit is ${MAX_ORDER_SLICES} (at most ${largest * MAX_ORDER_SLICES})`);
  }
  const slices = Array.from({ length: sliceCount - 1 }, () => largest);
  slices.push(quantity - largest * (sliceCount - 1));
  return slices;
}
