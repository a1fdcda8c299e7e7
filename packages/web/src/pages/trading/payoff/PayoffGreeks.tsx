// The greeks table of /payoff: each leg's (its quantity times the per-unit greeks) and the net,
// in rupees per rupee of spot (delta), per rupee squared (gamma), per day (theta), per vol point (vega).
import { Table, Text } from '@mantine/core';
import type { NetGreeks, PayoffPosition } from '@vyuha/engine';
import { GREEK_NAMES, greekText, legText } from './payoff-format';

const LABELS = { delta: 'Delta', gamma: 'Gamma', theta: 'Theta', vega: 'Vega' } as const;

function GreekCells({ greeks }: { readonly greeks: NetGreeks }) {
  return GREEK_NAMES.map((name) => <Table.Td key={name} data-greek={name} style={{ whiteSpace: 'nowrap' }}>{greekText[name](greeks[name])}</Table.Td>);
}

export function PayoffGreeks({ legs, perLeg, net }: { readonly legs: readonly PayoffPosition[]; readonly perLeg: readonly NetGreeks[]; readonly net: NetGreeks }) {
  return (
    <Table.ScrollContainer minWidth={560}>
      <Table fz="sm" verticalSpacing={4} data-testid="payoff-greeks">
        <Table.Thead>
          <Table.Tr><Table.Th>Greeks</Table.Th>{GREEK_NAMES.map((name) => <Table.Th key={name}>{LABELS[name]}</Table.Th>)}</Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {legs.map((leg, index) => (
            <Table.Tr key={`${leg.timestamp}-${index}`} data-testid="payoff-greeks-leg">
              <Table.Td>{legText(leg)}</Table.Td>
              {perLeg[index] !== undefined && <GreekCells greeks={perLeg[index]} />}
            </Table.Tr>
          ))}
          <Table.Tr data-testid="payoff-greeks-net">
            <Table.Td><Text span fw={600} size="sm">Net</Text></Table.Td>
            <GreekCells greeks={net} />
          </Table.Tr>
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
