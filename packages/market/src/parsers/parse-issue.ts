/** One problem found in a text file: 1-based line and character column where the bad field starts. */
export interface ParseIssue {
  readonly line: number;
  readonly column: number;
  readonly reason: string;
}

/** Parsers stop collecting after this many issues: a broken file gives a readable list, not 90k lines. */
export const MAX_PARSE_ISSUES = 20;

/** `line:column: reason`, the form every text error takes. @example formatParseIssue({ line: 7, column: 21, reason: 'high 101.5 is below open 102' }) // '7:21: high 101.5 is below open 102' */
export function formatParseIssue(issue: ParseIssue): string {
  return `${issue.line}:${issue.column}: ${issue.reason}`;
}

/** Collects issues up to MAX_PARSE_ISSUES; `full` tells a parser it may stop early. */
export class IssueCollector {
  readonly issues: ParseIssue[] = [];

  add(line: number, column: number, reason: string): void {
    if (this.issues.length < MAX_PARSE_ISSUES) this.issues.push({ line, column, reason });
  }

  get full(): boolean {
    return this.issues.length >= MAX_PARSE_ISSUES;
  }

  get empty(): boolean {
    return this.issues.length === 0;
  }
}
