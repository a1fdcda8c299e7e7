import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvColumns, csvField, csvLine } from '../../src/graphql/csv';
import { freshDatabase, type TestDatabase } from '../helpers/db';
import { createTestEngine, NOTES_TABLE_SQL, startGraphqlServer, testToken, type TestServer } from './live-test-engine';

/** RFC 4180 reader for the assertions: fields of CRLF-separated records. */
function readCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let index = 0; index < text.length; index += 1) {
    const char = text[index];
    if (quoted) {
      if (char === '"' && text[index + 1] === '"') {
        field += '"';
        index += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      record.push(field);
      field = '';
    } else if (char === '\r' && text[index + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      index += 1;
    } else field += char;
  }
  return records;
}

describe('CSV formatting', () => {
  it('flattens nested objects to dotted columns in key order; arrays stay one JSON column', () => {
    const row = { id: 7, user: { name: 'Asha', broker: { active: true } }, tags: ['a', 'b'], note: null };
    expect(csvColumns(row).map((column) => column.header)).toEqual(['id', 'user.name', 'user.broker.active', 'tags', 'note']);
    expect(csvLine(row, csvColumns(row))).toBe('7,Asha,true,"[""a"",""b""]",\r\n');
  });

  it('guards formulas but not plain numbers', () => {
    expect(csvField('=SUM(A1:A9)')).toBe("'=SUM(A1:A9)");
    expect(csvField('+91 98')).toBe("'+91 98");
    expect(csvField('@cmd')).toBe("'@cmd");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('-12.5')).toBe('-12.5');
    expect(csvField(-4)).toBe('-4');
  });

  it('round-trips any text through RFC 4180 quoting (formula guard aside)', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { minLength: 1, maxLength: 6 }), (values) => {
        const row = Object.fromEntries(values.map((value, index) => [`c${index}`, value]));
        const [record] = readCsv(csvLine(row, csvColumns(row)));
        const expected = values.map((value) => (/^[=+\-@\t\r]/.test(value) && !/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value) ? `'${value}` : value));
        expect(record).toEqual(expected);
      }),
    );
  });
});

describe('POST /api/gql/csv', () => {
  let db: TestDatabase;
  let server: TestServer;
  const alice = 'a11ce000-0000-4000-8000-000000000001';

  beforeAll(async () => {
    db = await freshDatabase();
    await db.pool.query(NOTES_TABLE_SQL);
    await db.pool.query(`INSERT INTO public.test_notes (owner, body) VALUES ($1, '=HYPERLINK("http://evil")'), ($1, E'two\\nlines, "quoted"'), ('someone-else', 'hidden')`, [alice]);
    server = await startGraphqlServer({ pool: db.pool, engine: createTestEngine(db.pool) });
  });

  afterAll(async () => {
    await server.close();
    await db.close();
  });

  const csv = (body: unknown, token?: string) =>
    fetch(`${server.url}/api/gql/csv`, { method: 'POST', headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });

  it("streams the first root field as an attachment, with the caller's permissions", async () => {
    const response = await csv({ query: '{ my_notes: notes { id body owner { id } created_at } }' }, testToken({ userId: alice }));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="my_notes-\d{8}-\d{6}\.csv"$/);
    expect(readCsv(await response.text())).toEqual([
      ['id', 'body', 'owner.id', 'created_at'],
      ['1', `'=HYPERLINK("http://evil")`, alice, '2024-05-02T03:45:00+00:00'],
      ['2', 'two\nlines, "quoted"', alice, '2024-05-02T03:45:00+00:00'],
    ]);
  });

  it('answers errors before the first row as JSON with a 4xx status', async () => {
    const anonymous = await csv({ query: '{ notes { id } }' });
    expect(anonymous.status).toBe(400);
    expect(await anonymous.json()).toMatchObject({ errors: [{ extensions: { code: 'validation-failed' } }] });
    const expired = await csv({ query: '{ notes { id } }' }, testToken({ userId: alice, expiresIn: -1 }));
    expect(expired.status).toBe(401);
    const noQuery = await csv({ variables: {} }, testToken({ userId: alice }));
    expect([noQuery.status, await noQuery.json()]).toEqual([400, { errors: [{ message: "the key 'query' was not present", extensions: { path: '$.query', code: 'bad-request' } }] }]);
  });

  it('streams a large result in chunks', async () => {
    await db.pool.query("INSERT INTO public.test_notes (owner, body) SELECT 'bulk-user', 'row ' || n FROM generate_series(1, 20000) n");
    const response = await csv({ query: '{ notes { id body } }' }, testToken({ userId: 'bulk-user' }));
    const records = readCsv(await response.text());
    expect(records).toHaveLength(20_001);
    expect(records[20_000]?.[1]).toBe('row 20000');
  });
});
