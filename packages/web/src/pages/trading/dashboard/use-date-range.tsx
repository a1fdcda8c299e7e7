// The dashboard's date range: a preset (default "Last 90 days", ending yesterday IST, docs/PRODUCT.md
// section 9) or a custom range that must end by yesterday; undefined while the custom one is invalid.
import { Select, TextInput } from '@mantine/core';
import type { IsoDate, IsoDateRange } from '@vyuha/core';
import { useState, type ReactNode } from 'react';
import { asIsoDate, DEFAULT_RANGE_PRESET, defaultDateRange, presetRange, RANGE_PRESETS } from '../../../format/date-ranges';

const CUSTOM = 'custom';

export function useDateRange(today: IsoDate): { range: IsoDateRange | undefined; controls: ReactNode } {
  const [preset, setPreset] = useState<string>(DEFAULT_RANGE_PRESET);
  const yesterday = defaultDateRange(today).to;
  const [custom, setCustom] = useState<{ from: string; to: string }>(() => defaultDateRange(today));
  const customFrom = asIsoDate(custom.from);
  const customTo = asIsoDate(custom.to);
  const customRange = customFrom !== undefined && customTo !== undefined && customFrom <= customTo && customTo <= yesterday
    ? { from: customFrom, to: customTo } : undefined;
  const range = preset === CUSTOM ? customRange : presetRange(preset, today);
  const controls = (
    <>
      <Select
        label="Date range"
        w={170}
        allowDeselect={false}
        value={preset}
        onChange={(value) => setPreset(value ?? DEFAULT_RANGE_PRESET)}
        data={[...RANGE_PRESETS.map(({ key, label }) => ({ value: key, label })), { value: CUSTOM, label: 'Custom range' }]}
        data-testid="dashboard-range"
      />
      {preset === CUSTOM && (
        <>
          <TextInput type="date" label="From" value={custom.from} max={yesterday} w={160}
            onChange={(event) => setCustom({ ...custom, from: event.currentTarget.value })} />
          <TextInput type="date" label="To" value={custom.to} max={yesterday} w={160}
            error={customRange === undefined ? 'From must not be after To; To at most yesterday' : undefined}
            onChange={(event) => setCustom({ ...custom, to: event.currentTarget.value })} />
        </>
      )}
    </>
  );
  return { range, controls };
}
