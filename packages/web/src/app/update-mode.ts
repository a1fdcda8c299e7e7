// The update-mode check (docs/PRODUCT.md section 2, rule ours): while a new version is being deployed the
// server says so in /version.json (`updateMode: true`), and screens under the check turn
// read-only: they show a banner and disable every action that writes.
import { createContext, useContext } from 'react';

export const ReadOnlyContext = createContext(false);

/** True while the screen must not write (update mode). */
export function useReadOnly(): boolean {
  return useContext(ReadOnlyContext);
}
