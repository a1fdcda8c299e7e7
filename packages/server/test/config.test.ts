import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '../src/config';
import { repoRoot } from '../src/paths';

describe('readConfig', () => {
  it('defaults to the embedded database on 127.0.0.1:8080 with the demo world', () => {
    const config = readConfig({});
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, databaseUrl: undefined, seedDemo: true, embeddedPostgresPort: 54329 });
    expect(config.dataDir).toBe(`${repoRoot}/.data`);
  });

  it('generates the demo market history only with the demo world, unless VYUHA_DEMO_HISTORY=0', () => {
    expect(readConfig({}).demoHistory).toBe(true);
    expect(readConfig({ VYUHA_DEMO_HISTORY: '0' }).demoHistory).toBe(false);
    expect(readConfig({ DATABASE_URL: 'postgres://u:p@db:5432/v' }).demoHistory).toBe(false);
  });

  it('does not seed an external database unless VYUHA_DEMO=1', () => {
    expect(readConfig({ DATABASE_URL: 'postgres://u:p@db:5432/v' }).seedDemo).toBe(false);
    expect(readConfig({ DATABASE_URL: 'postgres://u:p@db:5432/v', VYUHA_DEMO: '1' }).seedDemo).toBe(true);
  });

  it.each([
    [{ PORT: 'eighty' }, /^PORT must be a port number/],
    [{ PORT: '70000' }, /^PORT must be a port number/],
    [{ VYUHA_PG_PORT: '-1' }, /^VYUHA_PG_PORT must be a port number/],
    [{ DATABASE_URL: 'mysql://x' }, /^DATABASE_URL must be a postgres/],
    [{ VYUHA_DEMO: 'maybe' }, /^VYUHA_DEMO must be 1 or 0/],
    [{ VYUHA_DEMO_HISTORY: '2' }, /^VYUHA_DEMO_HISTORY must be 1 or 0/],
    [{ LOG_LEVEL: 'loud' }, /^LOG_LEVEL must be one of/],
  ])('names the variable in error for %o', (env, message) => {
    expect(() => readConfig(env)).toThrow(ConfigError);
    expect(() => readConfig(env)).toThrow(message);
  });
});
