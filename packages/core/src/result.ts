/** The outcome of an operation that can fail in an expected way: a value, or an error to show. */
export type Result<T, E = Error> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** Wraps a success. */
export function ok<T>(value: T): Result<T, never> {
  return { ok: true, value };
}

/** Wraps an expected failure. */
export function err<E>(error: E): Result<never, E> {
  return { ok: false, error };
}
