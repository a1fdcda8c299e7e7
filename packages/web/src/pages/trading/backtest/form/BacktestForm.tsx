// The "New backtest" form of /backtest (docs/PRODUCT.md sections 3, 5, 8 and 9): every field of the backtest
// form with its errors at the field (the engine's validation, the same the server runs), the
// credits it will use against the BACKTEST credits left, and submit through run_backtest; a
// refusal shows at the field its path names, else as an error toast; success opens
// /backtest/{strategy_id}, where the results screen follows the runs.
import { Alert, Button, Group, Input, Loader, NativeSelect, Paper, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import type { IsoDate } from '@vyuha/core';
import type { RequestIssue, StrategyType } from '@vyuha/engine';
import { isOptionUnderlying } from '@vyuha/market';
import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useSubscription } from 'urql';
import { showToast } from '../../../../app/toast';
import { useReadOnly } from '../../../../app/update-mode';
import { BACKTEST_CREDITS, SWEPT_CANDLES, USED_CANDLES, usedCandles, type SweptCandlesData, type UsedCandlesData } from '../../../../graphql/documents';
import { istToday } from '../../../../format/date-ranges';
import { errorMessage, QueryError } from '../../research/query-feedback';
import { useWindowStarts } from '../../research/use-window-starts';
import { AlgorithmPicker } from './AlgorithmPicker';
import { availableCredits, creditFit, creditsText, estimateFormCredits } from './credits';
import { DateRangesField } from './DateRangesField';
import { errorAt, fieldErrorsOf, refusalOf, unplacedMessages } from './field-errors';
import { earliestDate, toRunBacktestInput, validateForm } from './form-state';
import type { BacktestFormState } from './form-state';
import { useBacktestFormStore } from './form-store';
import { FrequenciesField, INTERVAL_OPTIONS } from './FrequenciesField';
import { InstrumentPicker } from './InstrumentPicker';
import { TradeField } from './TradeField';
import { tradedDescription } from './traded-instrument';

const RUN_BACKTEST = `
  mutation RunBacktest($input: run_backtest_input!) {
    run_backtest(input: $input) { strategy_id run_ids candles }
  }`;

interface RunBacktestData {
  readonly run_backtest: { readonly strategy_id: string; readonly run_ids: readonly string[]; readonly candles: number };
}

/** The BACKTEST credits left, live (the shell's credit-notice subscriptions: unexpired grants minus the candles of runs and sweeps). */
function useAvailableCredits(userId: string, today: IsoDate): { available: number | undefined; error: ReturnType<typeof useSubscription>[0]['error'] } {
  const [granted] = useSubscription<{ user_credits_aggregate: { aggregate: { sum: { credits: number | null } | null } | null } }>(
    { query: BACKTEST_CREDITS, variables: { userId, today } });
  const [used] = useSubscription<UsedCandlesData>({ query: USED_CANDLES, variables: { userId } });
  const [swept] = useSubscription<SweptCandlesData>({ query: SWEPT_CANDLES, variables: { userId } });
  const spent = usedCandles(used.data, swept.data);
  if (granted.data === undefined || spent === undefined) return { available: undefined, error: granted.error ?? used.error ?? swept.error };
  return {
    available: availableCredits({ granted: Number(granted.data.user_credits_aggregate.aggregate?.sum?.credits ?? 0), used: spent }),
    error: undefined,
  };
}

/** Server refusals belong to the form they were given for; any change of the form clears them. */
interface ServerRefusals {
  readonly form: BacktestFormState;
  readonly issues: readonly RequestIssue[];
  readonly credits: string | undefined;
}

interface FormBodyProps {
  readonly userId: string;
  readonly form: BacktestFormState;
  readonly update: (change: (form: BacktestFormState) => BacktestFormState) => void;
  readonly reset: () => void;
  readonly today: IsoDate;
}

function FormBody({ userId, form, update, reset, today }: FormBodyProps) {
  const readOnly = useReadOnly();
  const navigate = useNavigate();
  const windowStarts = useWindowStarts();
  const [refusals, setRefusals] = useState<ServerRefusals | undefined>(undefined);
  const [submission, runBacktest] = useMutation<RunBacktestData>(RUN_BACKTEST);
  const issues = useMemo(() => validateForm(form, { today, windowStarts }), [form, today, windowStarts]);
  const current = refusals?.form === form ? refusals : undefined;
  const errors = useMemo(() => fieldErrorsOf([...(current?.issues ?? []), ...issues]), [current, issues]);
  const unplaced = unplacedMessages(issues);
  const credits = useAvailableCredits(userId, today);
  const needed = useMemo(() => estimateFormCredits(form), [form]);
  const fit = credits.available === undefined ? undefined : creditFit({ needed, available: credits.available });
  const runs = form.algos.length * form.dateRanges.length * form.frequenciesAndInvestments.length;
  const set = <K extends keyof BacktestFormState>(field: K, value: BacktestFormState[K]): void => update((previous) => ({ ...previous, [field]: value }));
  const disabled = readOnly || submission.fetching;
  // Credits that could not be read do not block: the server checks them again and says so.
  const creditsBlock = fit !== undefined ? !fit.fits : credits.error === undefined;
  const blocked = readOnly || issues.length > 0 || creditsBlock || submission.fetching;

  const submit = async (): Promise<void> => {
    if (blocked) return;
    const submitted = form;
    const result = await runBacktest({ input: toRunBacktestInput(submitted) });
    const data = result.data?.run_backtest;
    if (data !== undefined && result.error === undefined) {
      showToast('success', `Backtest queued: ${data.run_ids.length} run${data.run_ids.length === 1 ? '' : 's'}, ${data.candles.toLocaleString('en-IN')} credits reserved`);
      void navigate(`/backtest/${data.strategy_id}`);
      return;
    }
    if (result.error === undefined) return;
    const placed: RequestIssue[] = [];
    let creditsMessage: string | undefined;
    if (result.error.graphQLErrors.length === 0) showToast('error', errorMessage(result.error));
    for (const graphqlError of result.error.graphQLErrors) {
      const refusal = refusalOf(graphqlError);
      if (refusal.kind === 'fields') {
        placed.push(...refusal.issues);
        refusal.unplaced.forEach((message) => showToast('error', message));
      } else if (refusal.kind === 'credits') creditsMessage = refusal.message;
      else showToast('error', refusal.message);
    }
    setRefusals({ form: submitted, issues: placed, credits: creditsMessage });
  };

  const earliest = earliestDate(form.frequenciesAndInvestments, windowStarts);
  const traded = tradedDescription({ instrument: form.selectedInstrument, strategyType: form.strategyType, dateRanges: form.dateRanges, today });
  const underlying = form.selectedInstrument?.tradingSymbol;
  return (
    <Paper withBorder p="md" data-testid="bt-form">
      <form onSubmit={(event) => { event.preventDefault(); void submit(); }} noValidate>
        <Stack gap="md">
          <Title order={3}>New backtest</Title>
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <TextInput
              label="Name" placeholder="Optional: named after the instrument and dates otherwise" value={form.name} disabled={disabled}
              error={errorAt(errors, 'name')} data-testid="bt-name" onChange={(event) => set('name', event.currentTarget.value)}
            />
            <Stack gap={4}>
              <Input.Label component="div">Strategy type</Input.Label>
              <SegmentedControl
                w="fit-content" value={form.strategyType} disabled={disabled} data-testid="bt-strategy-type"
                data={[{ value: 'intraday', label: 'Intraday' }, { value: 'swing', label: 'Swing' }]}
                onChange={(value) => set('strategyType', value as StrategyType)}
              />
              {errorAt(errors, 'strategyType') !== undefined && <Text size="xs" c="red" role="alert">{errorAt(errors, 'strategyType')}</Text>}
            </Stack>
          </SimpleGrid>
          <AlgorithmPicker
            userId={userId} value={form.algos} onChange={(ids) => set('algos', ids)} disabled={disabled}
            error={errorAt(errors, 'algorithms') ?? errorAt(errors, 'algorithms[0]')}
          />
          <AlgorithmIssues errors={errors} count={form.algos.length} />
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
            <InstrumentPicker
              value={form.selectedInstrument} onChange={(instrument) => set('selectedInstrument', instrument)} error={errorAt(errors, 'instrument')} disabled={disabled}
            />
            <NativeSelect
              label="Window" description="The strategy's candle window (spec default 5 minutes)." data={INTERVAL_OPTIONS} value={String(form.window)}
              disabled={disabled} error={errorAt(errors, 'window')} data-testid="bt-window" onChange={(event) => set('window', Number(event.currentTarget.value))}
            />
          </SimpleGrid>
          <DateRangesField ranges={form.dateRanges} onChange={(ranges) => set('dateRanges', ranges)} errors={errors} limits={{ earliest, today }} disabled={disabled} />
          <FrequenciesField pairs={form.frequenciesAndInvestments} onChange={(pairs) => set('frequenciesAndInvestments', pairs)} errors={errors} disabled={disabled} />
          <TradeField
            draft={form.tradeInstrumentsConfig} onChange={(draft) => set('tradeInstrumentsConfig', draft)} errors={errors}
            underlying={underlying} optionable={underlying !== undefined && isOptionUnderlying(underlying)} disabled={disabled} traded={traded}
          />
          {unplaced.map((message, index) => <Alert key={index} color="red" variant="light" data-testid="bt-form-error">{message}</Alert>)}
          <QueryError error={credits.error} title="Could not read your backtest credits" />
          <Group justify="space-between" align="center">
            <Stack gap={2}>
              <Text size="sm" data-testid="bt-runs">{runs.toLocaleString('en-IN')} run{runs === 1 ? '' : 's'} (algorithms × date ranges × pairs)</Text>
              <Text size="sm" {...(fit !== undefined && !fit.fits ? { c: 'red' } : {})} data-testid="bt-credits">
                {fit === undefined ? (credits.error === undefined ? 'Checking your backtest credits…' : `Uses ${needed.toLocaleString('en-IN')} credits`) : creditsText(fit)}
              </Text>
              {current?.credits !== undefined && <Text size="sm" c="red" role="alert" data-testid="bt-credits-error">{current.credits}</Text>}
            </Stack>
            <Stack gap={2} align="flex-end">
              <Group gap="xs">
                <Button variant="default" disabled={disabled} data-testid="bt-reset" onClick={reset}>Reset</Button>
                <Button type="submit" disabled={blocked} loading={submission.fetching} data-testid="bt-submit">Run backtest</Button>
              </Group>
              <SubmitNote readOnly={readOnly} problems={issues.length} creditsShort={fit !== undefined && !fit.fits} />
            </Stack>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** Errors of single algorithms (`algorithms[1]: repeats ...`, `no algorithm ... of yours or published`). */
function AlgorithmIssues({ errors, count }: { readonly errors: ReturnType<typeof fieldErrorsOf>; readonly count: number }) {
  const messages = Array.from({ length: count }, (_, index) => ({ index, message: errorAt(errors, `algorithms[${index}]`) }))
    .filter((entry) => entry.index > 0 && entry.message !== undefined);
  if (messages.length === 0) return null;
  return <>{messages.map(({ index, message }) => <Text key={index} size="xs" c="red" role="alert">Algorithm {index + 1}: {message}</Text>)}</>;
}

/** Why the submit button is disabled, beside it. */
function SubmitNote({ readOnly, problems, creditsShort }: { readonly readOnly: boolean; readonly problems: number; readonly creditsShort: boolean }) {
  if (readOnly) return <Text size="xs" c="dimmed" data-testid="bt-submit-note">Read-only while the app is being updated.</Text>;
  if (problems > 0) return <Text size="xs" c="red" data-testid="bt-submit-note">Fix the {problems === 1 ? 'problem' : `${problems} problems`} marked above to run.</Text>;
  if (creditsShort) return <Text size="xs" c="red" data-testid="bt-submit-note">Not enough backtest credits for this backtest.</Text>;
  return null;
}

/** The form for the acting user `userId`, kept in the session's form store. */
export function BacktestForm({ userId }: { readonly userId: string }) {
  const today = istToday();
  const open = useBacktestFormStore((state) => state.open);
  const form = useBacktestFormStore((state) => state.form);
  const ownerId = useBacktestFormStore((state) => state.ownerId);
  const update = useBacktestFormStore((state) => state.update);
  const reset = useBacktestFormStore((state) => state.reset);
  useEffect(() => open({ ownerId: userId, today }), [open, userId, today]);
  if (form === undefined || ownerId !== userId) return <Loader size="sm" />;
  return <FormBody userId={userId} form={form} update={update} reset={() => reset({ ownerId: userId, today })} today={today} />;
}
