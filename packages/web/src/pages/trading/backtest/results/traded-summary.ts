// What a finished run traded, read from its result document's `traded` section (written by the
// backtest service's tradedSummary): the futures contracts of an index and whether the model
// priced them, or the shares or option legs, with the charges applied. Untyped JSON in, plain
// words out; an older result without the section says nothing.
import { objectField, stringField } from '../../research/display';

export interface TradedSummary {
  /** One line: what was traded and how it was charged. */
  readonly text: string;
  /** The contracts traded, in order (futures only). */
  readonly contracts: readonly string[];
  /** True when a cost-of-carry model priced any of them. */
  readonly modelPrices: boolean;
  /** The model's rate, percent a year, when it was used. */
  readonly modelRatePercent: number | undefined;
}

function chargesText(traded: Record<string, unknown>): string {
  const charges = objectField(traded, 'charges');
  const exchange = stringField(charges, 'exchange');
  const instrument = stringField(charges, 'instrument');
  if (exchange === undefined || instrument === undefined) return 'no charges';
  const kind: Record<string, string> = { future: 'futures', option: 'options', 'equity-intraday': 'intraday equity', 'equity-delivery': 'delivery equity' };
  return `${exchange} ${kind[instrument] ?? instrument} charges`;
}

/**
 * The summary of a run's result document, or undefined when it has none.
 * @example tradedSummaryOf({ traded: { kind: 'index-futures', underlying: 'NIFTY', contracts: [{ tradingSymbol: 'NIFTY26SEPFUT', prices: 'model' }], modelPrices: true, modelRate: 0.065, rollTime: '15:15', charges } })
 * // { text: "NIFTY's near-month futures: NIFTY26SEPFUT, rolled at 15:15 on expiry day; NSE futures charges", contracts: ['NIFTY26SEPFUT'], modelPrices: true, modelRatePercent: 6.5 }
 */
export function tradedSummaryOf(result: unknown): TradedSummary | undefined {
  const traded = objectField(result, 'traded');
  if (traded === undefined) return undefined;
  const kind = stringField(traded, 'kind');
  const charges = chargesText(traded);
  if (kind !== 'index-futures') {
    const what = kind === 'equity' ? 'The shares' : kind === 'option-legs' ? 'Option legs' : 'The instrument';
    return { text: `${what}; ${charges}`, contracts: [], modelPrices: false, modelRatePercent: undefined };
  }
  const list = Array.isArray(traded.contracts) ? traded.contracts : [];
  const contracts = list.map((contract) => stringField(contract, 'tradingSymbol')).filter((symbol): symbol is string => symbol !== undefined);
  const underlying = stringField(traded, 'underlying') ?? 'the index';
  const rollTime = stringField(traded, 'rollTime') ?? '15:15';
  const modelPrices = traded.modelPrices === true;
  const rate = typeof traded.modelRate === 'number' ? Math.round(traded.modelRate * 10_000) / 100 : undefined;
  const which = contracts.length === 0 ? 'no contract was traded' : contracts.join(', ');
  return {
    text: `${underlying}'s near-month futures: ${which}, rolled at ${rollTime} on expiry day; ${charges}`,
    contracts, modelPrices, modelRatePercent: modelPrices ? rate : undefined,
  };
}
