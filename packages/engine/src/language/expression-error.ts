import type { SourcePosition, SourceSpan } from './ast';

/** A problem in expression source, located for the editor. Line and column are 1-based. */
export interface ExpressionError {
  readonly message: string;
  readonly line: number;
  readonly column: number;
  readonly offset: number;
  /** Where the offending text ends (exclusive), for underlining. */
  readonly endLine: number;
  readonly endColumn: number;
}

/** Builds an error covering `span`. */
export function errorAt(span: SourceSpan, message: string): ExpressionError {
  return {
    message,
    line: span.start.line,
    column: span.start.column,
    offset: span.start.offset,
    endLine: span.end.line,
    endColumn: span.end.column,
  };
}

/** Formats a position as the editor shows it. @example formatPosition({ line: 2, column: 7, offset: 9 }) // '2:7' */
export function formatPosition(position: SourcePosition): string {
  return `${position.line}:${position.column}`;
}

/** The editor's one-line form. @example formatExpressionError(e) // '1:5: unknown name ...' */
export function formatExpressionError(error: ExpressionError): string {
  return `${error.line}:${error.column}: ${error.message}`;
}
