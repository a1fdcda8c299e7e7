// Bhavcopy files as NSE publishes them: a CSV, or a .zip holding one (or more) CSVs.

import { readFile } from 'node:fs/promises';
import { unzipSync } from 'fflate';

/** One CSV text and the name errors should call it by (`archive.zip/inner.csv` for zip members). */
export interface NamedText {
  readonly name: string;
  readonly text: string;
}

const decoder = new TextDecoder('utf-8');

/** Reads each path; a `.zip` contributes every `.csv` inside it. An archive without one is an error. */
export async function readBhavcopyTexts(paths: readonly string[]): Promise<NamedText[]> {
  const texts: NamedText[] = [];
  for (const path of paths) {
    const bytes = await readFile(path);
    if (!path.toLowerCase().endsWith('.zip')) {
      texts.push({ name: path, text: decoder.decode(bytes) });
      continue;
    }
    let members: Record<string, Uint8Array>;
    try {
      members = unzipSync(bytes, { filter: (entry) => entry.name.toLowerCase().endsWith('.csv') });
    } catch (error) {
      throw new Error(`${path}: not a readable zip archive (${(error as Error).message})`);
    }
    const names = Object.keys(members).sort();
    if (names.length === 0) throw new Error(`${path}: the archive holds no .csv file`);
    for (const name of names) texts.push({ name: `${path}/${name}`, text: decoder.decode(members[name]) });
  }
  return texts;
}
