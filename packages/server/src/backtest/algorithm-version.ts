// A stored algorithm version compiled for a run (a backtest job, a paper run): the graph as saved,
// through the engine's compiler. What is wrong comes back in words for the run's own error.
import { err, ok } from '@vyuha/core';
import type { Result } from '@vyuha/core';
import { compileAlgorithm, formatAlgorithmError } from '@vyuha/engine';
import type { AlgorithmError, CompiledAlgorithm } from '@vyuha/engine';
import type pg from 'pg';

/**
 * Version `version` of algorithm `id`, compiled; the reason when it is gone or no longer compiles
 * (`label` names the algorithm in it).
 * @example await compiledVersion(pool, { id, version: 3, label: 'EMA cross' }) // ok(compiled) or err('algorithm EMA cross version 3 no longer exists')
 */
export async function compiledVersion(pool: pg.Pool, request: { readonly id: string; readonly version: number; readonly label: string }): Promise<Result<CompiledAlgorithm, string>> {
  const stored = await storedVersion(pool, request);
  return stored.ok ? ok(stored.value.compiled) : stored;
}

/** As compiledVersion, with the graph as saved beside the compiled algorithm (a worker thread compiles it again). */
export async function storedVersion(pool: pg.Pool, request: { readonly id: string; readonly version: number; readonly label: string }): Promise<Result<{ graph: unknown; compiled: CompiledAlgorithm }, string>> {
  const { id, version, label } = request;
  const { rows } = await pool.query<{ graph: unknown }>('SELECT graph FROM algorithm_versions WHERE algorithm_id = $1 AND version = $2', [id, version]);
  if (rows[0] === undefined) return err(`algorithm ${label} version ${version} no longer exists`);
  const compiled = compileAlgorithm(rows[0].graph);
  if (!compiled.ok) return err(versionCompileError({ label, version }, compiled.error));
  return ok({ graph: rows[0].graph, compiled: compiled.value });
}

/** The reason a stored version no longer compiles. */
export function versionCompileError(request: { readonly version: number; readonly label: string }, errors: readonly AlgorithmError[]): string {
  return `algorithm ${request.label} version ${request.version} does not compile: ${errors.map(formatAlgorithmError).join('; ')}`;
}
