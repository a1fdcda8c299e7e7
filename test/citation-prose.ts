// The prose of a repository file: the parts where a person writes citations. Code files (.ts, .tsx,
// .js, .mjs) give their comments, and separately their string literals (test titles and messages
// can cite a document too); SQL and CSS give their comments; Markdown is prose throughout; JSON
// gives its strings. Everything else in the file is blanked with spaces, newlines kept, so an
// offset into the prose is an offset into the file and a phrase broken over two comment lines is
// still one phrase. Used by test/citations.test.ts, with the rules of test/citation-rules.ts.
import ts from 'typescript';

/** A stretch of a file that holds prose, and what kind of stretch it is. */
export interface ProseRange {
  readonly start: number;
  readonly end: number;
  readonly kind: 'comment' | 'string' | 'text';
}

const CODE_KINDS: Readonly<Record<string, ts.ScriptKind>> = {
  '.ts': ts.ScriptKind.TS, '.tsx': ts.ScriptKind.TSX, '.js': ts.ScriptKind.JS, '.mjs': ts.ScriptKind.JS,
};

/** The file extensions whose prose is scanned. */
export const SCANNED_EXTENSIONS: readonly string[] = [...Object.keys(CODE_KINDS), '.md', '.sql', '.json', '.css'];

function extensionOf(path: string): string {
  const dot = path.lastIndexOf('.');
  return dot < 0 ? '' : path.slice(dot);
}

/** Comment and string ranges of a TypeScript or JavaScript file, from its syntax tree. */
function codeRanges(path: string, text: string, kind: ts.ScriptKind): ProseRange[] {
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, kind);
  const comments = new Map<number, ProseRange>();
  const strings: ProseRange[] = [];
  const addComments = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) comments.set(range.pos, { start: range.pos, end: range.end, kind: 'comment' });
  };
  const visit = (node: ts.Node): void => {
    // JSDoc nodes sit inside comments already found as ranges of the node they document.
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (node.kind !== ts.SyntaxKind.JsxText) addComments(ts.getLeadingCommentRanges(text, node.pos));
    addComments(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node) || ts.isJsxText(node)) {
      strings.push({ start: node.getStart(source), end: node.end, kind: 'string' });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...comments.values(), ...strings];
}

/** `--` (SQL only) and block comments of an SQL or CSS file, function bodies included, skipping quoted text. */
function sqlOrCssRanges(text: string, lineComments: boolean): ProseRange[] {
  const ranges: ProseRange[] = [];
  let at = 0;
  while (at < text.length) {
    const rest = text.slice(at, at + 2);
    if (rest === '--' && lineComments) {
      const end = text.indexOf('\n', at);
      const stop = end < 0 ? text.length : end;
      ranges.push({ start: at, end: stop, kind: 'comment' });
      at = stop;
    } else if (rest === '/*') {
      const end = text.indexOf('*/', at + 2);
      const stop = end < 0 ? text.length : end + 2;
      ranges.push({ start: at, end: stop, kind: 'comment' });
      at = stop;
    } else if (text[at] === "'") {
      let end = at + 1;
      while (end < text.length && !(text[end] === "'" && text[end + 1] !== "'")) end += text[end] === "'" ? 2 : 1;
      at = end + 1;
    } else {
      at += 1;
    }
  }
  return ranges;
}

/** The strings of a JSON file (keys and values). */
function jsonRanges(text: string): ProseRange[] {
  const ranges: ProseRange[] = [];
  const pattern = /"(?:[^"\\]|\\.)*"/g;
  for (const match of text.matchAll(pattern)) ranges.push({ start: match.index, end: match.index + match[0].length, kind: 'string' });
  return ranges;
}

/** Where the prose of a file is, by its extension; an unknown extension has none. */
export function proseRanges(path: string, text: string): ProseRange[] {
  const extension = extensionOf(path);
  const codeKind = CODE_KINDS[extension];
  if (codeKind !== undefined) return codeRanges(path, text, codeKind);
  if (extension === '.sql' || extension === '.css') return sqlOrCssRanges(text, extension === '.sql');
  if (extension === '.json') return jsonRanges(text);
  if (extension === '.md') return [{ start: 0, end: text.length, kind: 'text' }];
  return [];
}

/** Comment markers at the start of a comment line (`//`, `/*`, `*`, `--`) and the closing `*\/`. */
const COMMENT_MARKERS = /^([ \t]*)(\/\/+|\/\*+|\*\/|\*|--)/gm;

/**
 * The file's text with everything outside the chosen ranges blanked (newlines kept) and comment
 * markers blanked too, so offsets and line numbers stay those of the file.
 * @example maskedProse('a = 1; // see x', [{start: 7, end: 15, kind: 'comment'}]) // '          see x'
 */
export function maskedProse(text: string, ranges: readonly ProseRange[]): string {
  const out = text.replace(/[^\n]/g, ' ').split('');
  for (const range of ranges) {
    let piece = text.slice(range.start, range.end);
    if (range.kind === 'comment') {
      const blankMarker = (_all: string, space: string, marker: string): string => space + ' '.repeat(marker.length);
      piece = piece.replace(COMMENT_MARKERS, blankMarker).replace(/\*\/$/, '  ');
    }
    for (let index = 0; index < piece.length; index += 1) {
      if (text[range.start + index] !== '\n') out[range.start + index] = piece[index] as string;
    }
  }
  return out.join('');
}

/** The 1-based line of an offset. */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index >= 0 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}
