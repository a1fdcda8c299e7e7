// What counts as a citation in the prose of a file (test/citation-prose.ts) and when one is wrong.
// Two rules: (1) a cited repository path must exist; (2) nothing may cite a document that lives
// outside the repository (the seed specification and the design, style, market, auth and Kite
// notes it came with, or a task brief): their content lives in docs/ (docs/README.md is the
// index), and "spec section N" is written "docs/PRODUCT.md section N". The detector is tuned to be
// exact on this tree; its self-test in test/citations.test.ts lists what must and must not be
// flagged.
import { posix } from 'node:path';

/** The tracked files and folders of the working tree, for existence checks. */
export interface RepoTree {
  readonly files: ReadonlySet<string>;
  readonly folders: ReadonlySet<string>;
  readonly basenames: ReadonlySet<string>;
  readonly packageRoots: readonly string[];
}

/** One citation that breaks a rule, at an offset into the file. */
export interface Offence {
  readonly offset: number;
  readonly cited: string;
  readonly problem: string;
}

/** Builds the existence index from repo-relative file paths. */
export function repoTree(paths: readonly string[]): RepoTree {
  const folders = new Set<string>();
  for (const path of paths) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) folders.add(path.slice(0, slash));
  }
  const packageRoots = [...folders].filter((folder) => /^(packages|tests)\/[^/]+$/.test(folder)).map((folder) => `${folder}/`);
  return { files: new Set(paths), folders, basenames: new Set(paths.map((path) => posix.basename(path))), packageRoots };
}

/** The documents that came with the seed specification and live outside the repository. */
const OUTSIDE_DOCUMENTS: Readonly<Record<string, string>> = {
  'DESIGN.md': 'ARCHITECTURE.md or the docs/ page that holds its topic',
  'STYLE.md': 'docs/CONVENTIONS.md',
  'MARKET.md': 'docs/MARKET-RULES.md',
  'AUTH.md': 'docs/AUTH-CONTRACT.md',
  'KITE.md': 'docs/BROKER-KITE.md',
};

const SPEC_SECTION_LIST = String.raw`[1-9](?!\d)(?:(?:\s*,\s*|\s+and\s+|\s*,\s*and\s+)[1-9](?!\d))*`;
/** "spec section 3", "the spec's section 4", "Spec sections 3 and 7", "spec\n section 9", "spec 7", "spec 3's". */
const SPEC_PHRASES: readonly RegExp[] = [
  new RegExp(String.raw`\bspec(?:ification)?(?:'s)?[ \t]*\n?[ \t]*(?:sections?|§)[ \t]*\n?[ \t]*${SPEC_SECTION_LIST}`, 'gi'),
  new RegExp(String.raw`\bspec[ \t]+${SPEC_SECTION_LIST}`, 'gi'),
  new RegExp(String.raw`\bspec(?:ification)?(?:'s)?\b[^.;\n]{0,60}\(sections?[ \t]+${SPEC_SECTION_LIST}\)`, 'gi'),
];

/** Citations of documents outside the repository in a piece of prose. */
export function outsideCitations(prose: string, tree: RepoTree): Offence[] {
  const offences: Offence[] = [];
  const add = (offset: number, cited: string, problem: string): void => {
    if (!offences.some((offence) => offset >= offence.offset && offset < offence.offset + offence.cited.length)) {
      offences.push({ offset, cited, problem });
    }
  };
  for (const match of prose.matchAll(/(?<![\w.-])(?:\.\.\/)+shared\b[\w./-]*|\/work\/shared\b[\w./-]*|(?<![\w./-])shared\/[\w./-]*/g)) {
    add(match.index, match[0].replace(/\.+$/, ''), 'is outside the repository (its content lives in docs/ and data/market/)');
  }
  for (const match of prose.matchAll(/(?<![\w.-])(DESIGN|STYLE|MARKET|AUTH|KITE)\.md\b/g)) {
    if (tree.basenames.has(match[0])) continue;
    add(match.index, match[0], `is outside the repository (now ${OUTSIDE_DOCUMENTS[match[0]]})`);
  }
  for (const match of prose.matchAll(/\btask brief\b|\bthe brief's\b/gi)) {
    add(match.index, match[0], 'is outside the repository (say what it decided, or cite ARCHITECTURE.md)');
  }
  for (const pattern of SPEC_PHRASES) {
    for (const match of prose.matchAll(pattern)) {
      const cited = match[0].replace(/\s+/g, ' ');
      const sections = /(\d+(?:.*\d)?)\)?$/.exec(cited)?.[1] ?? '';
      add(match.index, cited, `is outside the repository (now docs/PRODUCT.md section ${sections})`);
    }
  }
  return offences.sort((a, b) => a.offset - b.offset);
}

/** First folders a repository path can start with; strict ones must resolve exactly. */
const ROOT_FOLDERS = new Set(['packages', 'docs', 'scripts', 'tests', 'test', 'data', '.ci']);
/** Folders of a package (or the root's test/): such a path may resolve in any package. */
const PACKAGE_FOLDERS = new Set(['src', 'bench', 'bin', 'migrations', 'test']);
const PACKAGE_NAMES = new Set(['core', 'market', 'engine', 'server', 'web']);
/** Extensions of files a bare name or an unrooted relative path may cite (data and generated files are too often examples). */
const SOURCE_EXTENSIONS = /\.(?:ts|tsx|mjs|js|md|sql|css)$/;
/** Folders that hold generated or local files, never tracked. */
const GENERATED = new Set(['node_modules', 'dist', '.data', '.test-results', 'test-results', '.vite']);

/** How a path-like token is checked: strict (known root) or loose (a file name), or not a path. */
type TokenKind = 'strict' | 'loose' | 'none';

function kindOf(token: string): TokenKind {
  const segments = token.replace(/^(?:\.\.?\/)+/, '').split('/');
  const [first = '', second = ''] = segments;
  if (token.startsWith('/') || token.includes('//') || segments.some((segment) => GENERATED.has(segment))) return 'none';
  if (/^[A-Z][A-Z0-9]*_[A-Z0-9_]+$/.test(first) || first === 'shared') return 'none';
  if (segments.length > 1 && (ROOT_FOLDERS.has(first) || PACKAGE_FOLDERS.has(first))) return 'strict';
  if (segments.length > 2 && PACKAGE_NAMES.has(first) && PACKAGE_FOLDERS.has(second)) return 'strict';
  const name = posix.basename(token);
  if (!SOURCE_EXTENSIONS.test(token) || /^[.\d]/.test(name) || OUTSIDE_DOCUMENTS[name] !== undefined) return 'none';
  if (segments.length === 1 && (/\.(?:m?js|css)$/.test(name) || /^[A-Z0-9_-]+\.(?:ts|tsx|sql)$/.test(name))) return 'none';
  return 'loose';
}

/** Characters that make a neighbouring run a pattern, a URL or a scoped package name, not a path. */
const BEFORE_NOT_PATH = /[@:$*{}<>~%\\]/;
const AFTER_NOT_PATH = /[*{}<>$\\]/;

/** Path-like tokens in a piece of prose, with their offsets. */
export function pathTokens(prose: string): Array<{ offset: number; token: string }> {
  const found: Array<{ offset: number; token: string }> = [];
  for (const match of prose.matchAll(/[\w.\-/]+/g)) {
    const before = prose[match.index - 1] ?? ' ';
    const after = prose[match.index + match[0].length] ?? ' ';
    if (BEFORE_NOT_PATH.test(before) || AFTER_NOT_PATH.test(after)) continue;
    const token = match[0].replace(/[.-]+$/, '');
    if (/N{4}|X{3}/.test(token) || kindOf(token) === 'none') continue;
    found.push({ offset: match.index, token });
  }
  return found;
}

function packageRootOf(file: string): string | undefined {
  return /^(?:packages|tests)\/[^/]+\//.exec(file)?.[0];
}

/** Whether a cited token names a file or folder of the tree, seen from the citing file. */
export function resolves(token: string, citingFile: string, tree: RepoTree): boolean {
  const kind = kindOf(token);
  const target = token.replace(/\/$/, '');
  const exists = (path: string): boolean => tree.files.has(path) || tree.folders.has(path);
  const packageRoot = packageRootOf(citingFile);
  const bases = ['', posix.dirname(citingFile), ...(packageRoot === undefined ? [] : [packageRoot, `${packageRoot}src/`]), 'packages/'];
  if (bases.some((base) => exists(posix.normalize(posix.join(base, target))))) return true;
  const first = target.replace(/^(?:\.\.?\/)+/, '').split('/')[0] ?? '';
  if (kind === 'strict') {
    return PACKAGE_FOLDERS.has(first) && tree.packageRoots.some((root) => exists(posix.join(root, target)));
  }
  if (!target.includes('/')) return tree.basenames.has(target);
  const suffix = `/${target.replace(/^(?:\.\.?\/)+/, '')}`;
  return [...tree.files, ...tree.folders].some((path) => path.endsWith(suffix));
}

/** Cited paths in a piece of prose that name nothing in the tree. */
export function missingPaths(prose: string, citingFile: string, tree: RepoTree): Offence[] {
  return pathTokens(prose)
    .filter(({ token }) => !resolves(token, citingFile, tree))
    .map(({ offset, token }) => ({ offset, cited: token, problem: 'does not exist' }));
}
