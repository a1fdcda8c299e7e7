// The GraphQL documents of /baskets: the saved baskets (strategies of kind 'basket', live), one
// basket, its placements (its PAPER and LIVE runs, live, with their positions), the user's broker
// accounts (LIVE places through one), and the basket actions (save_basket, preview_basket,
// place_basket, choose_basket_outcome; the server checks role and ownership on each).
import type { LegInput } from './basket-form';
import type { PreviewLeg } from './basket-payoff';

export const BASKETS_SUBSCRIPTION = `
  subscription Baskets($user_id: uuid!) {
    strategies(where: { kind: { _eq: "basket" }, user_id: { _eq: $user_id } }, order_by: { updated_at: desc }, limit: 200) {
      strategy_id name config updated_at
    }
  }`;

export const BASKET_QUERY = `
  query Basket($strategy_id: uuid!) {
    strategies_by_pk(strategy_id: $strategy_id) { strategy_id name kind config }
  }`;

export const PLACEMENTS_SUBSCRIPTION = `
  subscription BasketPlacements($strategy_id: uuid!) {
    strategy_runs(where: { strategy_id: { _eq: $strategy_id }, kind: { _in: ["PAPER", "LIVE"] } }, order_by: { started_at: desc }, limit: 20) {
      run_id kind status status_reason result started_at
      positions(limit: 100) { instrument_id net_quantity instrument { trading_symbol } }
    }
  }`;

/** The broker accounts LIVE may place through (live-availability.ts picks the usable ones). */
export const BASKET_ACCOUNTS_SUBSCRIPTION = `
  subscription BasketAccounts($user_id: uuid!) {
    user_brokers(where: { user_id: { _eq: $user_id } }, order_by: [{ broker: asc }, { client_id: asc }]) {
      user_broker_id broker client_id active api_key investment_amt_paise investment_history
    }
  }`;

export const SAVE_BASKET = `
  mutation SaveBasket($strategy_id: uuid, $name: String!, $product: String, $legs: [basket_leg_input!]!) {
    save_basket(strategy_id: $strategy_id, name: $name, product: $product, legs: $legs) { strategy_id }
  }`;

export const DELETE_BASKET = `
  mutation DeleteBasket($strategy_id: uuid!) {
    delete_strategies_by_pk(strategy_id: $strategy_id) { strategy_id }
  }`;

export const PREVIEW_BASKET = `
  query PreviewBasket($product: String, $legs: [basket_leg_input!]!) {
    preview_basket(product: $product, legs: $legs) {
      trade_date charges_paise margin_paise margin_basis
      legs {
        index symbol kind side lot_size quantity price_paise price_source implied_volatility value_paise charges_paise
        expiry strike option_type underlying underlying_price_paise
      }
    }
  }`;

const PLACEMENT_FIELDS = `
  run_id complete needs_choice choice pending
  legs { index symbol side quantity status message average_price_paise charges_paise }
  square_off { index symbol side quantity status message average_price_paise charges_paise }`;

export const PLACE_BASKET = `
  mutation PlaceBasket($strategy_id: uuid!, $mode: String!, $user_broker_id: uuid) {
    place_basket(strategy_id: $strategy_id, mode: $mode, user_broker_id: $user_broker_id) { ${PLACEMENT_FIELDS} }
  }`;

export const CHOOSE_BASKET_OUTCOME = `
  mutation ChooseBasketOutcome($run_id: uuid!, $choice: String!) {
    choose_basket_outcome(run_id: $run_id, choice: $choice) { ${PLACEMENT_FIELDS} }
  }`;

/** A saved basket's document (strategies.config.basket). */
export interface BasketConfig {
  readonly basket?: { readonly version: number; readonly product: 'MIS' | 'NRML'; readonly legs: readonly LegInput[] };
}

export interface BasketRow {
  readonly strategy_id: string;
  readonly name: string;
  readonly config: BasketConfig;
  readonly updated_at: string;
}

export interface BasketPreviewData {
  readonly trade_date: string;
  readonly charges_paise: number;
  readonly margin_paise: number;
  readonly margin_basis: string;
  readonly legs: readonly PreviewLeg[];
}

/** A leg's outcome as the run's result stores it (basket-placement.ts, camelCase). */
export interface StoredLegOutcome {
  readonly index: number;
  readonly symbol: string;
  readonly side: string;
  readonly quantity: number;
  readonly status: string;
  readonly message: string | null;
  readonly averagePricePaise: number | null;
  readonly chargesPaise: number;
}

export interface PlacementRow {
  readonly run_id: string;
  readonly kind: string;
  readonly status: string;
  readonly status_reason: string | null;
  readonly result: {
    readonly legs?: readonly StoredLegOutcome[];
    readonly needsChoice?: boolean;
    readonly choice?: string | null;
    readonly squareOff?: readonly StoredLegOutcome[];
  } | null;
  readonly started_at: string;
  readonly positions: ReadonlyArray<{ readonly instrument_id: number; readonly net_quantity: number; readonly instrument: { readonly trading_symbol: string } | null }>;
}
