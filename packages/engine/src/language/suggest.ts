/**
 * Edit distance with adjacent transpositions (optimal string alignment), so `clsoe` is one edit
 * from `close`. Case-insensitive: `Close` is zero edits from `close`.
 * @example editDistance('clsoe', 'close') // 1
 */
export function editDistance(first: string, second: string): number {
  const a = first.toLowerCase();
  const b = second.toLowerCase();
  const rows = a.length + 1;
  const columns = b.length + 1;
  const table = new Array<number>(rows * columns).fill(0);
  const cell = (row: number, column: number): number => table[row * columns + column] ?? 0;
  for (let row = 0; row < rows; row += 1) table[row * columns] = row;
  for (let column = 0; column < columns; column += 1) table[column] = column;
  for (let row = 1; row < rows; row += 1) {
    for (let column = 1; column < columns; column += 1) {
      const cost = a[row - 1] === b[column - 1] ? 0 : 1;
      let best = Math.min(cell(row - 1, column) + 1, cell(row, column - 1) + 1, cell(row - 1, column - 1) + cost);
      if (row > 1 && column > 1 && a[row - 1] === b[column - 2] && a[row - 2] === b[column - 1]) {
        best = Math.min(best, cell(row - 2, column - 2) + 1);
      }
      table[row * columns + column] = best;
    }
  }
  return cell(rows - 1, columns - 1);
}

/**
 * The closest candidate, if it is close enough to be a plausible typo (at most 2 edits, and
 * fewer edits than half the name's length); ties go to the earlier candidate.
 * @example closestName('clsoe', ['open', 'close']) // 'close'
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (const candidate of candidates) {
    const distance = editDistance(name, candidate);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  const limit = Math.min(2, Math.ceil(name.length / 2) - 1);
  return bestDistance <= limit ? best : undefined;
}

/** `; did you mean 'close'?` or nothing. */
export function didYouMean(name: string, candidates: readonly string[]): string {
  const suggestion = closestName(name, candidates);
  return suggestion === undefined ? '' : `; did you mean '${suggestion}'?`;
}
