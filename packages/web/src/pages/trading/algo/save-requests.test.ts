// The editor's save requests: version numbering, one request per save, the flags merged per
// algorithm, and server errors placed where they belong.
import { describe, expect, it } from 'vitest';
import { algorithmFromExpressions } from '@vyuha/engine';
import { copyName, editorFlags, nextVersion, saveFailure, saveFlagsRequest, saveVersionRequest } from './save-requests';

const GRAPH = algorithmFromExpressions({ entry: 'close > open' });
const BASE = { algorithmId: 'a1', graph: GRAPH, name: 'Trend', description: '', flags: { signalEnabled: false }, userId: 'u1' };

describe('versions', () => {
  it('numbers versions latest + 1 from 1', () => {
    expect(nextVersion(null)).toBe(1);
    expect(nextVersion(1)).toBe(2);
    expect(nextVersion(41)).toBe(42);
  });

  it('saves the version, latest_version and the flags in one request', () => {
    const request = saveVersionRequest({ ...BASE, latestVersion: 3, configExists: true });
    expect(request.query.match(/insert_algorithm_versions_one|update_algorithms_by_pk|update_user_app_configs_by_pk/g)).toEqual([
      'insert_algorithm_versions_one', 'update_algorithms_by_pk', 'update_user_app_configs_by_pk',
    ]);
    expect(request.variables).toEqual({
      algorithm_id: 'a1', version: 4, graph: GRAPH, schema_version: 1,
      set: { latest_version: 4, name: 'Trend', description: '' },
      user_id: 'u1', flags: { a1: { signalEnabled: false } },
    });
  });

  it('inserts the editor config row when the user has none', () => {
    const request = saveFlagsRequest({ algorithmId: 'a1', flags: { signalEnabled: true }, userId: 'u1', configExists: false });
    expect(request.query).toContain('insert_user_app_configs_one');
    expect(request.variables).toEqual({ flags: { a1: { signalEnabled: true } } });
  });
});

describe('flags', () => {
  it('reads an algorithm\'s flag and defaults signals to on', () => {
    expect(editorFlags({ a1: { signalEnabled: false } }, 'a1')).toEqual({ signalEnabled: false });
    expect(editorFlags({ a2: { signalEnabled: false } }, 'a1')).toEqual({ signalEnabled: true });
    expect(editorFlags(null, 'a1')).toEqual({ signalEnabled: true });
  });
});

describe('saveFailure', () => {
  it('puts the unique-name violation next to the name field', () => {
    expect(saveFailure('Uniqueness violation. duplicate key value violates unique constraint "algorithms_user_id_name_key"'))
      .toEqual({ field: 'name', message: 'You already have an algorithm with this name' });
  });

  it('explains a version saved meanwhile, and passes other messages through as a toast', () => {
    expect(saveFailure('Uniqueness violation. duplicate key value violates unique constraint "algorithm_versions_pkey"').field).toBe('toast');
    expect(saveFailure('check constraint of an insert/update permission has failed')).toEqual({ field: 'toast', message: 'check constraint of an insert/update permission has failed' });
  });

  it('names copies', () => {
    expect(copyName('Trend')).toBe('Trend (copy)');
  });
});
