import { formatParseIssue, type ParseIssue } from '@vyuha/market';

/** One problem in one imported file. */
export interface FileIssue extends ParseIssue {
  readonly file: string;
}

/** An import refused as a whole; nothing was written. Each issue prints as `FILE:line:column: reason`. */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly issues: readonly FileIssue[];

  constructor(issues: readonly FileIssue[]) {
    super(issues.map(formatFileIssue).join('\n'));
    this.issues = issues;
  }
}

/** An import refused before any line was read (nothing to point at); nothing was written. */
export class ImportRefusedError extends Error {
  override readonly name = 'ImportRefusedError';
}

/** @example formatFileIssue({ file: 'a.csv', line: 7, column: 21, reason: 'high 101.5 is below open 102' }) // 'a.csv:7:21: high 101.5 is below open 102' */
export function formatFileIssue(issue: FileIssue): string {
  return `${issue.file}:${formatParseIssue(issue)}`;
}

/** Tags a parser's issues with the file they came from. */
export function inFile(file: string, issues: readonly ParseIssue[]): FileIssue[] {
  return issues.map((issue) => ({ file, ...issue }));
}
