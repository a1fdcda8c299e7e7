// A strategy's config JSON shown readably: array-of-object values (basket legs, ensemble
// members) as tables, scalars and the shapes config-text.ts knows (money in rupees, exits,
// sizing) as a key/value list, anything else as indented JSON.
import { Code, Stack, Table, Text, Title } from '@mantine/core';
import { configValueText, fieldLabel } from './config-text';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function cellText(key: string, value: Json): string {
  return configValueText(key, value) ?? JSON.stringify(value);
}

function RecordsTable({ rows }: { readonly rows: ReadonlyArray<Record<string, Json>> }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <Table.ScrollContainer minWidth={480}>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            {columns.map((column) => <Table.Th key={column}>{fieldLabel(column)}</Table.Th>)}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row, index) => (
            <Table.Tr key={index}>
              <Table.Td>{index + 1}</Table.Td>
              {columns.map((column) => <Table.Td key={column}>{column in row ? cellText(column, row[column] ?? null) : '—'}</Table.Td>)}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

export function ConfigView({ config }: { readonly config: unknown }) {
  if (!isRecord(config) || Object.keys(config).length === 0) return <Text c="dimmed">No configuration saved.</Text>;
  const entries = Object.entries(config);
  const scalars = entries.filter(([key, value]) => value === null || typeof value !== 'object' || configValueText(key, value) !== undefined);
  const scalarKeys = new Set(scalars.map(([key]) => key));
  const tables = entries.filter((entry): entry is [string, Array<Record<string, Json>>] =>
    Array.isArray(entry[1]) && entry[1].length > 0 && entry[1].every(isRecord));
  const tableKeys = new Set(tables.map(([key]) => key));
  const rest = entries.filter(([key]) => !scalarKeys.has(key) && !tableKeys.has(key));
  return (
    <Stack gap="sm">
      {scalars.length > 0 && (
        <Table variant="vertical" withTableBorder>
          <Table.Tbody>
            {scalars.map(([key, value]) => (
              <Table.Tr key={key}>
                <Table.Th w={200}>{fieldLabel(key)}</Table.Th>
                <Table.Td>{cellText(key, value)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {tables.map(([key, rows]) => (
        <Stack key={key} gap={4}>
          <Title order={5}>{fieldLabel(key)} ({rows.length})</Title>
          <RecordsTable rows={rows} />
        </Stack>
      ))}
      {rest.map(([key, value]) => (
        <Stack key={key} gap={4}>
          <Title order={5}>{fieldLabel(key)}</Title>
          {Array.isArray(value) && value.length === 0
            ? <Text size="sm" c="dimmed">None</Text>
            : <Code block>{JSON.stringify(value, null, 2)}</Code>}
        </Stack>
      ))}
    </Stack>
  );
}
