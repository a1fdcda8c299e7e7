// One index-and-expiry group analysed: the valuation moment (a "days from today" slider up to the
// expiry), the IV every leg is valued at (default: the chain's ATM IV from INDIA VIX), a price to
// read the P&L at, then the figures, the chart and the greeks. Numbers: payoff-analysis.ts.
import { Alert, Group, NumberInput, Paper, Slider, Stack, Text } from '@mantine/core';
import { expiryCloseEpochMs, type PayoffPositionGroup } from '@vyuha/engine';
import { useMemo, useState } from 'react';
import { lazyPart } from '../../../app/lazy-part';
import { formatDateTime, formatRupeesAmount } from '../../../format/format';
import { lastPriceText, type LastPrice } from '../parts/use-last-prices';
import { chainVolatility, chartPoints, DAY_MS, daysToExpiry, payoffAtPrice, payoffFigures, type PayoffFigures, type PayoffScenario } from './payoff-analysis';
import { boundText, breakevensText, fixed, probabilityText, volatilityPoints } from './payoff-format';
import { PayoffGreeks } from './PayoffGreeks';

/** The chart (the charting library) loads on its own: the figures show without waiting for it; its legend and 320 px plot are held meanwhile. */
const PayoffChart = lazyPart(() => import('./PayoffChart').then((module) => module.PayoffChart), { placeholderHeight: 346 });

export interface PayoffAnalysisProps {
  readonly group: PayoffPositionGroup;
  readonly spot: LastPrice;
  /** INDIA VIX's last price in points, when known. */
  readonly vix: number | undefined;
  /** "Today": the moment the screen opened (epoch ms). */
  readonly now: number;
}

function Figure({ label, value, testId }: { readonly label: string; readonly value: string; readonly testId: string }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed">{label}</Text>
      <Text fw={600} data-testid={testId}>{value}</Text>
    </Stack>
  );
}

function FigureRow({ figures, scenario, price }: { readonly figures: PayoffFigures; readonly scenario: PayoffScenario; readonly price: number | undefined }) {
  const at = price === undefined ? undefined : payoffAtPrice(scenario, price);
  return (
    <Group gap="xl" wrap="wrap" data-testid="payoff-figures">
      <Figure label="Max profit" value={boundText(figures.bounds.maxProfit)} testId="payoff-max-profit" />
      <Figure label="Max loss" value={boundText(figures.bounds.maxLoss)} testId="payoff-max-loss" />
      <Figure label="Breakevens" value={breakevensText(figures.breakevens)} testId="payoff-breakevens" />
      {figures.probabilityOfProfit !== undefined && <Figure label="Probability of profit" value={probabilityText(figures.probabilityOfProfit)} testId="payoff-pop" />}
      {at !== undefined && <Figure label="P&L at that price, at expiry" value={formatRupeesAmount(at.atExpiry)} testId="payoff-at-expiry" />}
      {at?.atValuation !== undefined && <Figure label="P&L at that price, on the valuation date" value={formatRupeesAmount(at.atValuation)} testId="payoff-at-valuation" />}
    </Group>
  );
}

/** The valuation moment: today plus the slider's days, never past the expiry's close. */
function useValuation(expiry: string, now: number) {
  const close = expiryCloseEpochMs(expiry);
  const maxDays = Math.max(0, Math.ceil((close - now) / DAY_MS));
  const [days, setDays] = useState(0);
  const offset = Math.min(days, maxDays);
  return { at: Math.min(now + offset * DAY_MS, close), offset, maxDays, setDays };
}

export function PayoffAnalysis({ group, spot, vix, now }: PayoffAnalysisProps) {
  const valuation = useValuation(group.expiry, now);
  const defaultVol = vix === undefined ? undefined : chainVolatility(vix, group.expiry, now);
  const [ivInput, setIvInput] = useState<number | string | undefined>(undefined);
  const [priceInput, setPriceInput] = useState<number | string>('');
  const ivValue = ivInput ?? (defaultVol === undefined ? '' : volatilityPoints(defaultVol));
  const vol = typeof ivValue === 'number' && ivValue > 0 ? ivValue / 100 : undefined;
  const price = typeof priceInput === 'number' && priceInput > 0 ? priceInput : spot.rupees;
  const scenario = useMemo<PayoffScenario>(() => ({ legs: group.positions, spot: spot.rupees, vol, at: valuation.at }), [group.positions, spot.rupees, vol, valuation.at]);
  const computed = useMemo(() => {
    try {
      const figures = payoffFigures(scenario);
      return { figures, points: chartPoints(scenario) };
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }, [scenario]);
  const valuedOn = `Valued at ${formatDateTime(valuation.at)}`;
  return (
    <Stack gap="sm" data-testid="payoff-analysis" data-at={valuation.at} data-spot={spot.rupees} data-vol={vol ?? ''} data-price={price}>
      <Text size="xs" c="dimmed" data-testid="payoff-spot">Spot: {group.indice} last price {lastPriceText(spot)}</Text>
      <Group gap="md" align="flex-end" wrap="wrap">
        <Stack gap={4} miw={220} style={{ flex: '1 1 220px' }}>
          <Text size="sm">{valuedOn} · {fixed(daysToExpiry(group.expiry, valuation.at), 1)} days to expiry</Text>
          <Slider min={0} max={Math.max(1, valuation.maxDays)} step={1} value={valuation.offset} onChange={valuation.setDays} disabled={valuation.maxDays === 0}
            label={(days) => `Today + ${days} d`} aria-label="Days from today" data-testid="payoff-days" />
        </Stack>
        <NumberInput hideControls label="IV % (all legs)" w={170} min={0.01} decimalScale={2} value={ivValue} onChange={setIvInput} data-testid="payoff-iv"
          error={ivInput !== undefined && vol === undefined ? 'IV must be above 0 to value the legs before expiry' : undefined} />
        <NumberInput hideControls label="P&L at level" w={170} min={0} decimalScale={2} value={priceInput} placeholder={String(spot.rupees)} onChange={setPriceInput}
          data-testid="payoff-price" />
      </Group>
      {defaultVol === undefined && ivInput === undefined && (
        <Text size="xs" c="dimmed">INDIA VIX has no last price, so the chain's IV is unknown: type an IV to value the legs before expiry.</Text>
      )}
      {typeof computed === 'string' ? <Alert color="red" variant="light" title="Cannot compute this payoff">{computed}</Alert> : (
        <>
          <FigureRow figures={computed.figures} scenario={scenario} price={price} />
          <PayoffChart points={computed.points} spot={spot.rupees} breakevens={computed.figures.breakevens} todayLabel={valuedOn} />
          {computed.figures.net !== undefined && computed.figures.perLeg !== undefined && (
            <Paper withBorder p="xs"><PayoffGreeks legs={group.positions} perLeg={computed.figures.perLeg} net={computed.figures.net} /></Paper>
          )}
        </>
      )}
    </Stack>
  );
}
