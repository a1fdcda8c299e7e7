import { createRng } from '@vyuha/core';
import type { Rng } from '@vyuha/core';
import { buildAnchorTable, planMonths, SyntheticInputError } from './inputs';
import type { AnchorTable, PlannedMonth } from './inputs';
import { buildMonthBars } from './bars';
import { INDEX_PROFILES, VIX_MODEL, VIX_TRADING_SYMBOL, ownLoading } from './model';
import type { IndexProfile } from './model';
import { baseStepVariance, bridgePath, drawShocks, indexLogPath, layoutMonth, vixLogPath } from './paths';
import type { MonthLayout } from './paths';
import { SYNTHETIC_INSTRUMENTS } from './types';
import type { SyntheticInstrument, SyntheticMarketOptions, SyntheticMonth, SyntheticSeries } from './types';

/** Version tag of the model inside the seed: changing the model must change this, not silently the numbers. */
const MODEL_STREAM = 'synthetic-market/v1';
const NIFTY: SyntheticInstrument = 'NIFTY 50';
const VIX: SyntheticInstrument = 'INDIA VIX';

/** What carries from one month to the next. */
interface CarriedState {
  previousDayNumber: number | undefined;
  vixLog: number;
  readonly indexLog: Map<SyntheticInstrument, number>;
}

/**
 * Streams the synthetic market one calendar month at a time: bars only inside the given sessions,
 * each month-end close equal to its anchor where one is given. Same inputs, same numbers.
 * Input is validated before the first month is produced.
 * @example generateSyntheticMarket({ sessions, seed: 1, anchors }).next().value.series[0].close // Int32Array of paise
 */
export function generateSyntheticMarket(options: SyntheticMarketOptions): Generator<SyntheticMonth, void, undefined> {
  const months = planMonths(options.sessions);
  const anchors = buildAnchorTable(options.anchors ?? []);
  const requested = requestedInstruments(options.instruments);
  const state = initialState(options, anchors, requested);
  return monthsOf({ months, anchors, requested, state, root: createRng(options.seed).fork(MODEL_STREAM) });
}

function requestedInstruments(instruments: readonly SyntheticInstrument[] | undefined): readonly SyntheticInstrument[] {
  if (!instruments) return SYNTHETIC_INSTRUMENTS;
  instruments.forEach((instrument, index) => {
    if (!SYNTHETIC_INSTRUMENTS.includes(instrument)) {
      throw new SyntheticInputError(`instruments[${index}]: unknown instrument ${JSON.stringify(instrument)}; expected one of ${SYNTHETIC_INSTRUMENTS.join(', ')}`);
    }
  });
  // Output order is the fixed list's order, whatever order was asked for.
  return SYNTHETIC_INSTRUMENTS.filter((instrument) => instruments.includes(instrument));
}

function initialState(options: SyntheticMarketOptions, anchors: AnchorTable, requested: readonly SyntheticInstrument[]): CarriedState {
  const startLevel = (instrument: SyntheticInstrument, fallback: number): number => {
    const given = options.startLevels?.[instrument];
    if (given !== undefined && (!Number.isFinite(given) || given <= 0)) {
      throw new SyntheticInputError(`startLevels[${JSON.stringify(instrument)}] must be a positive number, got ${given}`);
    }
    return given ?? anchors.firstLevel.get(instrument) ?? fallback;
  };
  const indexLog = new Map<SyntheticInstrument, number>();
  for (const profile of INDEX_PROFILES) {
    // NIFTY 50 is always simulated: its shock is the market's and its anchors steer indices without their own.
    if (profile.instrument === NIFTY || requested.includes(profile.instrument)) {
      indexLog.set(profile.instrument, Math.log(startLevel(profile.instrument, profile.fallbackStartLevel)));
    }
  }
  return { previousDayNumber: undefined, vixLog: Math.log(startLevel(VIX, VIX_MODEL.longRunLevel)), indexLog };
}

interface RunContext {
  readonly months: readonly PlannedMonth[];
  readonly anchors: AnchorTable;
  readonly requested: readonly SyntheticInstrument[];
  readonly state: CarriedState;
  readonly root: Rng;
}

function* monthsOf(context: RunContext): Generator<SyntheticMonth, void, undefined> {
  for (const month of context.months) {
    yield simulateMonth(context, month);
  }
}

/** One month: shared shocks, the VIX path, then every index from them, each bridged to its anchor. */
function simulateMonth(context: RunContext, month: PlannedMonth): SyntheticMonth {
  const { state, requested } = context;
  const layout = layoutMonth(month, state.previousDayNumber);
  const monthAnchors = context.anchors.byMonth.get(month.month);
  // Streams are forked per month and per purpose, so a change in one month's sessions or one
  // instrument's list leaves the other streams' numbers where they were.
  const streams = context.root.fork(month.month);
  const marketShocks = drawShocks(layout, streams.fork('market'));
  const needsFinancials = INDEX_PROFILES.some((profile) => profile.financials !== 0 && state.indexLog.has(profile.instrument));
  const financialShocks = needsFinancials ? drawShocks(layout, streams.fork('financials')) : undefined;

  const vixLog = vixLogPath({ layout, startLog: state.vixLog, marketShocks, vixShocks: drawShocks(layout, streams.fork('vix')) });
  const vixAnchor = monthAnchors?.get(VIX);
  if (vixAnchor !== undefined) bridgePath(vixLog, layout.tradingYears, Math.log(vixAnchor / 100) - vixLog[layout.steps]!);
  const baseVariance = baseStepVariance(layout, vixLog);

  const niftyPath = simulateIndex({ profile: profileOf(NIFTY), context, layout, baseVariance, marketShocks, financialShocks, streams });
  const niftyAnchor = monthAnchors?.get(NIFTY);
  const niftyCorrection = niftyAnchor === undefined ? 0 : Math.log(niftyAnchor / 100) - niftyPath[layout.steps]!;
  bridgePath(niftyPath, baseVariance, niftyCorrection);

  const series: SyntheticSeries[] = [];
  for (const instrument of requested) {
    if (instrument === VIX) {
      const vixStepVariance = layout.tradingYears.map((years) => VIX_MODEL.volatilityOfLog * VIX_MODEL.volatilityOfLog * years);
      series.push(barsOf({ instrument, tradingSymbol: VIX_TRADING_SYMBOL, logPath: vixLog, stepVariance: vixStepVariance, anchor: vixAnchor }, { month, streams }));
      continue;
    }
    const profile = profileOf(instrument);
    const anchor = monthAnchors?.get(instrument);
    let path = niftyPath;
    if (instrument !== NIFTY) {
      path = simulateIndex({ profile, context, layout, baseVariance, marketShocks, financialShocks, streams });
      // Without its own anchor an index follows the market's anchored trend, scaled by its beta
      // to NIFTY 50, instead of wandering off on its own for months.
      const correction = anchor === undefined ? profile.market * profile.volatilityMultiplier * niftyCorrection : Math.log(anchor / 100) - path[layout.steps]!;
      bridgePath(path, baseVariance, correction);
    }
    const multiplierSquared = profile.volatilityMultiplier * profile.volatilityMultiplier;
    const stepVariance = baseVariance.map((variance) => variance * multiplierSquared);
    series.push(barsOf({ instrument, tradingSymbol: profile.tradingSymbol, logPath: path, stepVariance, anchor }, { month, streams }));
    state.indexLog.set(instrument, path[layout.steps]!);
  }
  state.indexLog.set(NIFTY, niftyPath[layout.steps]!);
  state.vixLog = vixLog[layout.steps]!;
  const lastSession = month.sessions[month.sessions.length - 1];
  if (lastSession) state.previousDayNumber = lastSession.dayNumber;
  return { month: month.month, series };
}

function profileOf(instrument: SyntheticInstrument): IndexProfile {
  const profile = INDEX_PROFILES.find((candidate) => candidate.instrument === instrument);
  if (!profile) throw new SyntheticInputError(`no index profile for ${instrument}`);
  return profile;
}

function simulateIndex(input: {
  profile: IndexProfile;
  context: RunContext;
  layout: MonthLayout;
  baseVariance: Float64Array;
  marketShocks: Float64Array;
  financialShocks: Float64Array | undefined;
  streams: Rng;
}): Float64Array {
  const { profile, layout } = input;
  const own = ownLoading(profile);
  const ownShocks = own > 0 ? drawShocks(layout, input.streams.fork(`${profile.instrument}:shock`)) : undefined;
  const startLog = input.context.state.indexLog.get(profile.instrument);
  if (startLog === undefined) throw new SyntheticInputError(`no starting level for ${profile.instrument}`);
  return indexLogPath({
    startLog,
    baseVariance: input.baseVariance,
    volatilityMultiplier: profile.volatilityMultiplier,
    loadings: { market: profile.market, financials: profile.financials, own },
    marketShocks: input.marketShocks,
    financialShocks: profile.financials !== 0 ? input.financialShocks : undefined,
    ownShocks,
  });
}

function barsOf(
  series: { instrument: SyntheticInstrument; tradingSymbol: string; logPath: Float64Array; stepVariance: Float64Array; anchor: number | undefined },
  where: { month: PlannedMonth; streams: Rng },
): SyntheticSeries {
  return buildMonthBars(
    {
      instrument: series.instrument,
      tradingSymbol: series.tradingSymbol,
      month: where.month,
      logPath: series.logPath,
      stepVariance: series.stepVariance,
      closingAnchorPaise: series.anchor,
    },
    where.streams.fork(`${series.instrument}:range`),
  );
}
