// Turns the market reference CSVs (data/market/*.csv, the source of truth) into typed modules
// the pure market package can import, since pure code cannot read files:
//   data/market/holidays.csv         -> packages/market/src/data/holidays.generated.ts
//   data/market/special-sessions.csv -> packages/market/src/data/special-sessions.generated.ts
// Usage: node scripts/generate-market-data.mjs          (write the modules)
//        node scripts/generate-market-data.mjs --check  (exit 1 when a module is out of date)
// Plain Node, no dependencies. Bad input stops with file:line and the field at fault.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'data', 'market');
const outDir = join(root, 'packages', 'market', 'src', 'data');

const EXCHANGES = ['NSE', 'NFO', 'BSE', 'BFO', 'CDS', 'BCD', 'XCBO'];
const SESSION_SCOPES = ['NSE', 'BSE', 'IN'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^\d{2}:\d{2}$/;

/** RFC 4180 rows with the line each starts on; quoted cells may hold commas, quotes and line breaks. */
function parseCsv(text, fileName) {
  const rows = [];
  let row = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        cell += '"';
        index += 1;
      } else if (char === '"') {
        quoted = false;
      } else {
        if (char === '\n') line += 1;
        cell += char;
      }
    } else if (char === '"' && cell === '') {
      quoted = true;
    } else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && text[index + 1] === '\n') index += 1;
      row.push(cell);
      rows.push({ line: rowLine, cells: row });
      row = [];
      cell = '';
      line += 1;
      rowLine = line;
    } else {
      cell += char;
    }
  }
  if (quoted) throw new Error(`${fileName}:${rowLine}: unterminated quoted cell`);
  if (cell !== '' || row.length > 0) {
    row.push(cell);
    rows.push({ line: rowLine, cells: row });
  }
  return rows;
}

/** Data rows as objects keyed by the expected header, which must match exactly. */
function readRecords(fileName, header) {
  const [first, ...rest] = parseCsv(readFileSync(join(dataDir, fileName), 'utf8'), fileName);
  if (!first || first.cells.join(',') !== header.join(',')) {
    throw new Error(`${fileName}:1: expected the header "${header.join(',')}"`);
  }
  return rest.map(({ line, cells }) => {
    if (cells.length !== header.length) throw new Error(`${fileName}:${line}: expected ${header.length} cells, got ${cells.length}`);
    const record = Object.fromEntries(header.map((name, i) => [name, cells[i]]));
    return { where: `${fileName}:${line}`, record };
  });
}

function check(condition, where, what) {
  if (!condition) throw new Error(`${where}: bad ${what}`);
}

function holidays() {
  return readRecords('holidays.csv', ['date', 'exchange', 'event']).map(({ where, record }) => {
    check(DATE.test(record.date), where, `date "${record.date}"`);
    check(EXCHANGES.includes(record.exchange), where, `exchange "${record.exchange}"`);
    check(record.event !== '', where, `event "${record.event}"`);
    return { date: record.date, exchange: record.exchange, event: record.event };
  });
}

function specialSessions() {
  return readRecords('special-sessions.csv', ['date', 'exchange', 'kind', 'start', 'end', 'note']).map(({ where, record }) => {
    check(DATE.test(record.date), where, `date "${record.date}"`);
    check(SESSION_SCOPES.includes(record.exchange), where, `exchange "${record.exchange}"`);
    check(/^[a-z_]+$/.test(record.kind), where, `kind "${record.kind}"`);
    for (const field of ['start', 'end']) check(record[field] === '' || TIME.test(record[field]), where, `${field} "${record[field]}"`);
    return {
      date: record.date,
      exchange: record.exchange,
      kind: record.kind,
      start: record.start === '' ? null : record.start,
      end: record.end === '' ? null : record.end,
      note: record.note,
    };
  });
}

function literal(value) {
  return value === null ? 'null' : JSON.stringify(value);
}

function moduleText({ csv, typeName, constName, summary, rows }) {
  const lines = rows.map((row) => `  { ${Object.entries(row).map(([key, value]) => `${key}: ${literal(value)}`).join(', ')} },`);
  return [
    `// generated from data/market/${csv}; run node scripts/generate-market-data.mjs`,
    '// Do not edit by hand: edit the CSV and regenerate. packages/server/test/market-data-sync.test.ts',
    '// fails when this module and the CSV disagree.',
    `import type { ${typeName} } from '../calendar/calendar-records';`,
    '',
    `/** ${summary} */`,
    `export const ${constName}: readonly ${typeName}[] = [`,
    ...lines,
    '];',
    '',
  ].join('\n');
}

const outputs = [
  {
    file: 'holidays.generated.ts',
    text: moduleText({ csv: 'holidays.csv', typeName: 'HolidayRecord', constName: 'HOLIDAY_RECORDS', rows: holidays(),
      summary: 'Weekday trading holidays, one row per date per exchange code, in CSV order.' }),
  },
  {
    file: 'special-sessions.generated.ts',
    text: moduleText({ csv: 'special-sessions.csv', typeName: 'SpecialSessionRecord', constName: 'SPECIAL_SESSION_RECORDS', rows: specialSessions(),
      summary: 'Muhurat, weekend and special sessions and market-wide event days, in CSV order.' }),
  },
];

const checking = process.argv.includes('--check');
let stale = 0;
for (const { file, text } of outputs) {
  const path = join(outDir, file);
  if (checking) {
    let current = '';
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = '';
    }
    if (current !== text) {
      stale += 1;
      process.stderr.write(`${file} is out of date; run node scripts/generate-market-data.mjs\n`);
    }
  } else {
    writeFileSync(path, text);
    process.stdout.write(`wrote packages/market/src/data/${file}\n`);
  }
}
process.exit(stale === 0 ? 0 : 1);
