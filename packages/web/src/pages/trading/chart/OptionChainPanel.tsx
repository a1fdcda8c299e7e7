// The option chain around ATM for an index whose config has greeks (index_configs.oc_greeks),
// priced by option-chain.ts at the index's last price (the one the payoff screen shows too:
// parts/use-last-prices.ts) with INDIA VIX's last price. OI is
// shown only where known: a model does not know it, so the column shows a dash. The strike cell
// holds a Buy and a Sell button for its CE (left) and PE (right): they add a lot to the
// selection (option-chain-selection.ts) listed under the chain.
import { Badge, Button, Group, Paper, Table, Text } from '@mantine/core';
import { formatPrice, istDate } from '@vyuha/core';
import { buildTradingSymbol, INDEX_CONFIGS, isOptionUnderlying, lotSize, type OptionType, type OptionUnderlying } from '@vyuha/market';
import { useMemo } from 'react';
import { useQuery } from 'urql';
import { showToast } from '../../../app/toast';
import { formatDateTime, formatRupees, MISSING_VALUE } from '../../../format/format';
import type { LastPrice } from '../parts/use-last-prices';
import { chainQuote, type OptionChain, type OptionQuoteCells } from './option-chain';
import { unitsOf, useOptionSelectionStore, type OrderSide, type QuoteLookup } from './option-chain-selection';
import { OptionChainSelected } from './OptionChainSelected';

/** The chain's contracts that the instruments table holds (most synthetic strikes have no row). */
const CHAIN_INSTRUMENTS = `
  query ChainInstruments($symbols: [String!]!) {
    instruments(where: { kind: { _eq: "option" }, trading_symbol: { _in: $symbols } }) { instrument_id trading_symbol }
  }`;

const fixed = (value: number, digits: number): string => (Number.isFinite(value) ? value.toFixed(digits) : MISSING_VALUE);
const percentText = (value: number): string => (Number.isFinite(value) ? `${(value * 100).toFixed(1)}%` : MISSING_VALUE);
const oiText = (value: number | undefined): string => (value === undefined ? MISSING_VALUE : value.toLocaleString('en-IN'));

function sideCells(quote: OptionQuoteCells, side: 'CE' | 'PE') {
  const cells = [
    <Table.Td key="oi">{oiText(quote.oi)}</Table.Td>,
    <Table.Td key="vega">{fixed(quote.vega, 2)}</Table.Td>,
    <Table.Td key="theta">{fixed(quote.theta, 2)}</Table.Td>,
    <Table.Td key="gamma">{fixed(quote.gamma, 5)}</Table.Td>,
    <Table.Td key="delta">{fixed(quote.delta, 3)}</Table.Td>,
    <Table.Td key="iv">{percentText(quote.iv)}</Table.Td>,
    <Table.Td key="ltp" fw={500}>{formatRupees(quote.ltpPaise)}</Table.Td>,
  ];
  return side === 'CE' ? cells : [...cells].reverse();
}

const COLUMNS = ['OI', 'Vega', 'Theta', 'Gamma', 'Delta', 'IV', 'LTP'];
const SIDES: readonly OrderSide[] = ['Buy', 'Sell'];

/** The option underlying (NIFTY, ...) of an index by its name (NIFTY 50, ...). */
function underlyingOf(name: string): OptionUnderlying | undefined {
  const value = INDEX_CONFIGS.find((config) => config.name === name)?.value;
  return value !== undefined && isOptionUnderlying(value) ? value : undefined;
}

function tradingSymbolOf(contract: { underlying: string; expiry: OptionChain['expiry']; strike: number; optionType: OptionType }): string | undefined {
  try {
    return buildTradingSymbol({ kind: 'option', ...contract });
  } catch {
    return undefined;
  }
}

/** Lot size of the chain's expiry from the market lot rules, or undefined when none is known. */
function chainLotSize(underlying: OptionUnderlying, chain: OptionChain, at: number): number | undefined {
  try {
    return lotSize({ symbol: underlying, tradeDate: istDate(at), expiry: chain.expiry });
  } catch {
    return undefined;
  }
}

interface TradeButtonsProps {
  readonly strike: number;
  readonly optionType: OptionType;
  readonly onTrade: (order: { strike: number; optionType: OptionType; side: OrderSide }) => void;
  readonly disabled: boolean;
}

function TradeButtons({ strike, optionType, onTrade, disabled }: TradeButtonsProps) {
  return (
    <Group gap={2} wrap="nowrap" component="span">
      {SIDES.map((side) => (
        <Button key={side} size="compact-xs" px={4} variant="light" color={side === 'Buy' ? 'teal' : 'red'} disabled={disabled}
          aria-label={`${side} ${strike} ${optionType}`} title={`${side} one lot of ${strike} ${optionType}`}
          onClick={() => onTrade({ strike, optionType, side })} data-testid={`oc-${side.toLowerCase()}-${optionType}-${strike}`}>
          {side === 'Buy' ? 'B' : 'S'}
        </Button>
      ))}
    </Group>
  );
}

export interface OptionChainPanelProps {
  readonly chain: OptionChain;
  readonly name: string;
  /** The index's last price: the chain is priced at it, at its time. */
  readonly spot: LastPrice;
  readonly vix: number;
  readonly synthetic: boolean;
}

export function OptionChainPanel(props: OptionChainPanelProps) {
  const { chain, name, spot, vix, synthetic } = props;
  const at = spot.atMs;
  const underlying = underlyingOf(name);
  const lot = underlying === undefined ? undefined : chainLotSize(underlying, chain, at);
  const symbols = useMemo(() => {
    const bySide = new Map<string, string>();
    if (underlying === undefined) return bySide;
    for (const row of chain.rows) {
      for (const optionType of ['CE', 'PE'] as const) {
        const symbol = tradingSymbolOf({ underlying, expiry: chain.expiry, strike: row.strike, optionType });
        if (symbol !== undefined) bySide.set(`${row.strike}${optionType}`, symbol);
      }
    }
    return bySide;
  }, [underlying, chain]);
  const [rows] = useQuery<{ instruments: { instrument_id: number; trading_symbol: string }[] }>({
    query: CHAIN_INSTRUMENTS, variables: { symbols: [...symbols.values()] }, pause: symbols.size === 0,
  });
  const add = useOptionSelectionStore((state) => state.add);
  const quote: QuoteLookup = (item) => chainQuote(chain, item);

  const trade = (order: { strike: number; optionType: OptionType; side: OrderSide }): void => {
    const symbol = symbols.get(`${order.strike}${order.optionType}`);
    const cells = chainQuote(chain, { ...order, expiry: chain.expiry });
    if (underlying === undefined || lot === undefined || symbol === undefined || cells === undefined) return;
    const instrumentId = rows.data?.instruments.find((row) => row.trading_symbol === symbol)?.instrument_id ?? null;
    const problem = add(underlying, {
      instrumentId, tradingSymbol: symbol, optionType: order.optionType, strike: order.strike, expiry: chain.expiry, lotSize: lot,
      quantity: unitsOf({ side: order.side, lots: 1, lotSize: lot }), ltpPaise: cells.ltpPaise, iv: cells.iv,
    });
    if (problem !== undefined) showToast('error', problem);
  };
  const tradable = underlying !== undefined && lot !== undefined;

  return (
    <Paper withBorder p="sm" data-testid="option-chain">
      <Group justify="space-between" mb="xs">
        <Text fw={500}>
          {name} option chain · expiry {chain.expiry} ({chain.expiryKind}) · spot <span data-testid="oc-spot">{formatPrice(spot.pricePaise)}</span> · INDIA VIX {vix.toFixed(2)} · {formatDateTime(at)}
        </Text>
        <Group gap="xs">
          <Badge variant="light" color="gray" title="Black-76 on the synthetic volatility surface">Model prices</Badge>
          {synthetic && <Badge variant="light" color="orange" title="Generated history, not market data">Synthetic</Badge>}
        </Group>
      </Group>
      <Table.ScrollContainer minWidth={1000}>
        <Table striped highlightOnHover withColumnBorders fz="xs" ta="right">
          <Table.Thead>
            <Table.Tr>
              <Table.Th colSpan={COLUMNS.length} ta="center">Calls (CE)</Table.Th>
              <Table.Th ta="center">Strike</Table.Th>
              <Table.Th colSpan={COLUMNS.length} ta="center">Puts (PE)</Table.Th>
            </Table.Tr>
            <Table.Tr>
              {COLUMNS.map((column) => <Table.Th key={`ce-${column}`}>{column}</Table.Th>)}
              <Table.Th />
              {[...COLUMNS].reverse().map((column) => <Table.Th key={`pe-${column}`}>{column}</Table.Th>)}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {chain.rows.map((row) => (
              <Table.Tr key={row.strike} data-testid="option-chain-row" data-atm={row.atm} style={row.atm ? { fontWeight: 700 } : undefined}>
                {sideCells(row.ce, 'CE')}
                <Table.Td ta="center" fw={700}>
                  <Group gap={6} justify="center" wrap="nowrap">
                    <TradeButtons strike={row.strike} optionType="CE" onTrade={trade} disabled={!tradable} />
                    <span>{row.strike.toLocaleString('en-IN')}{row.atm ? ' (ATM)' : ''}</span>
                    <TradeButtons strike={row.strike} optionType="PE" onTrade={trade} disabled={!tradable} />
                  </Group>
                </Table.Td>
                {sideCells(row.pe, 'PE')}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {underlying !== undefined && <OptionChainSelected underlying={underlying} indice={name} at={at} spot={spot.rupees} quote={quote} />}
    </Paper>
  );
}
