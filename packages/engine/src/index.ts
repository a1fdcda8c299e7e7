// The engine's public surface: option math, payoff and synthetic option quotes so far; the
// algorithm language and the kernel arrive with the issue "Algorithm language and the backtest engine".
export type { SyntheticOptionQuoteInput, SyntheticOptionQuote } from './synthetic/option-quote';
export { syntheticOptionQuote, relativeHalfSpread, SYNTHETIC_RATE } from './synthetic/option-quote';
export type { SurfacePoint } from './synthetic/volatility-surface';
export { syntheticAtmVolatility, syntheticImpliedVolatility, standardisedMoneyness } from './synthetic/volatility-surface';
export type { OptionType } from './options/option-input';
export { OptionInputError } from './options/option-input';
export { normalCdf, normalPdf } from './options/normal';
export type { OptionGreeks } from './options/greeks';
export type { Black76Input } from './options/black76';
export { black76Price, black76PriceAndGreeks } from './options/black76';
export type { BlackScholesInput } from './options/black-scholes';
export { blackScholesPrice, blackScholesPriceAndGreeks } from './options/black-scholes';
export { yearsToExpiry, expiryCloseEpochMs } from './options/time-to-expiry';
export type { ImpliedVolatilityResult, ImpliedVolatilityFailure, ImpliedVolatilityOptions, Black76ImpliedVolatilityInput, BlackScholesImpliedVolatilityInput } from './options/implied-volatility';
export { black76ImpliedVolatility, blackScholesImpliedVolatility, MINIMUM_VOLATILITY, MAXIMUM_VOLATILITY } from './options/implied-volatility';
export type { PayoffLeg, OptionRight } from './payoff/payoff-leg';
export type { ProfitAndLossBounds } from './payoff/expiry-payoff';
export { payoffAtExpiry, breakevens, profitAndLossBounds } from './payoff/expiry-payoff';
export type { MarketState, NetGreeks } from './payoff/position-value';
export { positionValue, netGreeks } from './payoff/position-value';
export type { PayoffPoint, PayoffCurveOptions } from './payoff/payoff-curve';
export { payoffCurve } from './payoff/payoff-curve';
export type { LognormalModel } from './payoff/probability-of-profit';
export { probabilityOfProfit } from './payoff/probability-of-profit';
export type { PayoffPosition, PayoffPositionGroup } from './payoff/payoff-positions';
export { groupPositions, availableIndices, replacePositionsForIndex } from './payoff/payoff-positions';
