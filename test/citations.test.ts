// The repository stands alone: every path a doc or comment cites exists, and nothing cites a
// document that lives outside the repository (the seed specification, its design, style, market,
// auth and Kite notes, or a `shared/` folder beside the checkout). Their content is in docs/
// (docs/README.md), and a spec section is cited as "docs/PRODUCT.md section N".
//
// Scanned: the working tree's files that git tracks or would track (.ts, .tsx, .js, .mjs, .md,
// .sql, .json, .css; not lock files, node_modules, dist or .data): comments of code, strings of
// code for outside documents (a test title cites too), Markdown whole, SQL and CSS comments, JSON
// strings. Applied migrations (packages/server/migrations/NNNN_*.sql) are exempt: they are
// checksummed and never edited, so a migration's "spec section N" means docs/PRODUCT.md section
// N and its MARKET.md, AUTH.md or STYLE.md mean the docs/ pages named in test/citation-rules.ts.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { lineAt, maskedProse, proseRanges, SCANNED_EXTENSIONS } from './citation-prose';
import type { RepoTree } from './citation-rules';
import { missingPaths, outsideCitations, pathTokens, repoTree } from './citation-rules';

const root = join(import.meta.dirname, '..');

/** Files that name files of other projects (where the market data came from): only the outside-document rule applies. */
const FOREIGN_PATH_FILES: ReadonlyMap<string, string> = new Map([
  ['data/market/sources.md', 'it names files inside the public repositories the data came from'],
]);
/** The detector and its self-test quote what they look for. */
const DETECTOR_FILES = new Set(['test/citation-prose.ts', 'test/citation-rules.ts', 'test/citations.test.ts']);
const SKIPPED = /(?:^|\/)(?:node_modules|dist|\.data)\/|(?:^|\/)package-lock\.json$/;

function isMigration(path: string): boolean {
  return /^packages\/server\/migrations\/\d{4}_[\w-]+\.sql$/.test(path);
}

function workingTreeFiles(): string[] {
  const listed = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: root, encoding: 'utf8' });
  return [...new Set(listed.split('\0'))].filter((path) => path !== '' && existsSync(join(root, path)));
}

interface Findings {
  readonly missing: string[];
  readonly outside: string[];
  readonly outsideKinds: Map<string, number>;
}

function outsideKind(cited: string): string {
  if (/shared/.test(cited)) return 'shared folder';
  if (/brief/i.test(cited)) return 'task brief';
  if (/\.md$/.test(cited)) return cited;
  return 'spec section';
}

function scanTree(): Findings {
  const files = workingTreeFiles();
  const tree: RepoTree = repoTree(files);
  const findings: Findings = { missing: [], outside: [], outsideKinds: new Map() };
  for (const file of files) {
    if (SKIPPED.test(file) || DETECTOR_FILES.has(file) || isMigration(file)) continue;
    if (!SCANNED_EXTENSIONS.some((extension) => file.endsWith(extension))) continue;
    const text = readFileSync(join(root, file), 'utf8');
    const ranges = proseRanges(file, text);
    const isCode = /\.(?:ts|tsx|js|mjs)$/.test(file);
    if (!FOREIGN_PATH_FILES.has(file)) {
      const prose = maskedProse(text, ranges.filter((range) => !isCode || range.kind === 'comment'));
      for (const offence of missingPaths(prose, file, tree)) {
        findings.missing.push(`${file}:${lineAt(text, offence.offset)}: cites ${offence.cited} which ${offence.problem}`);
      }
    }
    for (const offence of outsideCitations(maskedProse(text, ranges), tree)) {
      findings.outside.push(`${file}:${lineAt(text, offence.offset)}: cites ${offence.cited} which ${offence.problem}`);
      const kind = outsideKind(offence.cited);
      findings.outsideKinds.set(kind, (findings.outsideKinds.get(kind) ?? 0) + 1);
    }
  }
  return findings;
}

describe('the citation detector', () => {
  const tree = repoTree([
    'README.md', 'docs/PRODUCT.md', 'packages/engine/README.md', 'packages/engine/src/kernel/ports.ts',
    'packages/server/src/auth/README.md', 'packages/server/migrations/0001_start.sql',
  ]);
  const outside = (prose: string): string[] => outsideCitations(prose, tree).map((offence) => offence.cited);
  const missing = (prose: string, from = 'README.md'): string[] => missingPaths(prose, from, tree).map((offence) => offence.cited);

  it.each([
    ['see spec section 3.', ['spec section 3']],
    ["the spec's section 4 machine", ["spec's section 4"]],
    ['Spec sections 3, 5 and 9: the forms', ['Spec sections 3, 5 and 9']],
    ['aggregated to a spec\n   section 9 interval', ['spec section 9']],
    ['managers where manager_id = me (spec 7)', ['spec 7']],
    ["the spec's default chart interval (section 9)", ["spec's default chart interval (section 9)"]],
    ['facts in ../shared/MARKET.md and /work/shared/AUTH.md', ['../shared/MARKET.md', '/work/shared/AUTH.md']],
    ['copied from shared/data once', ['shared/data']],
    ['Budget (DESIGN.md): 1 s; rule 4 of STYLE.md; KITE.md', ['DESIGN.md', 'STYLE.md', 'KITE.md']],
    ["0.053% as the task brief prescribes; the brief's name", ['task brief', "the brief's"]],
  ])('flags the outside citation in %j', (prose, expected) => {
    expect(outside(prose)).toEqual(expected);
  });

  it.each([
    'docs/PRODUCT.md section 3 and docs/MARKET-RULES.md',
    'RFC 6238 section 5.2',
    "the spec's 404 page; the spec has no CANCELLED status",
    'rows shared by every process; inspect section 3; in brief, a brief pause',
    'packages/server/test/graphql/spec-section7.test.ts',
  ])('leaves %j alone', (prose) => {
    expect(outside(prose)).toEqual([]);
  });

  it.each([
    ['packages/engine/src/kernel/missing.ts', 'README.md'],
    ['docs/NOPE.md', 'README.md'],
    ['engine/src/kernel/gone.ts', 'README.md'],
    ['(auth-provider.tsx)', 'README.md'],
    ['kernel/nothere.ts', 'README.md'],
    ['src/kernel/port.ts', 'packages/engine/README.md'],
  ])('flags the missing path in %j cited from %s', (prose, from) => {
    expect(missing(prose, from)).toHaveLength(1);
  });

  it.each([
    ['`packages/engine/src/kernel/ports.ts`, engine/src/kernel/ports.ts and kernel/ports.ts', 'README.md'],
    ['see docs/PRODUCT.md. Or ./README.md, or ../../README.md', 'packages/engine/README.md'],
    ['src/kernel/ports.ts', 'packages/engine/README.md'],
    ['src/auth/README.md', 'docs/PRODUCT.md'],
    ['`packages/web/dist/version.json`, node_modules/x/y.ts', 'README.md'],
    ['https://example.com/docs/x.md and /v1/auth/signin and /work/elsewhere/a.ts', 'README.md'],
    ['@vyuha/core/src/money and @nhost/nhost-js', 'README.md'],
    ['migrations/NNNN_name.sql, packages/{core,market}/src/**/*.test.ts, brokers/<broker>/x.ts', 'README.md'],
    ['DATA_DIR/postgres-credentials.json, FILE.json, OUT.csv, Node.js, x.csv, cli.mjs', 'README.md'],
    ['the layer rule of DESIGN.md', 'README.md'],
  ])('accepts %j cited from %s', (prose, from) => {
    expect(missing(prose, from)).toEqual([]);
  });

  it('reads comments (and, apart, strings) of code and the comments of SQL as prose, never the code', () => {
    const code = "const file = 'packages/x.ts'; // see docs/A.md\n/** the spec\n * section 3 */\nconst re = /\\/\\/ not a comment/;\n";
    const ranges = proseRanges('a.ts', code);
    const comments = maskedProse(code, ranges.filter((range) => range.kind === 'comment'));
    expect(comments).toContain('see docs/A.md');
    expect(comments).not.toContain('packages/x.ts');
    expect(comments).not.toContain('not a comment');
    expect(outside(comments)).toEqual(['spec section 3']);
    expect(maskedProse(code, ranges.filter((range) => range.kind === 'string'))).toContain("'packages/x.ts'");
    const sql = "SELECT '-- not a comment' AS a; -- see docs/B.md\n";
    const sqlProse = maskedProse(sql, proseRanges('m.sql', sql));
    expect(sqlProse).toContain('see docs/B.md');
    expect(sqlProse).not.toContain('not a comment');
  });

  it('finds a path split from its sentence dot and reports it once', () => {
    expect(pathTokens('Read docs/PRODUCT.md.').map((token) => token.token)).toEqual(['docs/PRODUCT.md']);
  });
});

describe('the tree', () => {
  let findings: Findings;
  beforeAll(() => {
    findings = scanTree();
  }, 170_000);

  it('every repository path a doc or comment cites exists', () => {
    expect(findings.missing.join('\n'), `${findings.missing.length} cited paths do not exist`).toBe('');
  });

  it('nothing cites a document outside the repository', () => {
    const kinds = [...findings.outsideKinds].map(([kind, count]) => `${kind}: ${count}`).join(', ');
    expect(findings.outside.join('\n'), `${findings.outside.length} outside citations (${kinds})`).toBe('');
  });
});
