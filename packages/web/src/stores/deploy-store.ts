// The deploy store of docs/PRODUCT.md section 3 (local storage): the version this tab knows and whether a
// newer deployed version was seen (docs/PRODUCT.md section 4: with no stored version, store it; a different
// one sets notify-refresh).
import { create } from 'zustand';
import { createJSONStorage, persist } from 'zustand/middleware';

export interface DeployState {
  readonly version: string | null;
  readonly notifyRefresh: boolean;
  /** Takes a version read from /version.json. */
  received(version: string): void;
  /** After a reload onto the new version. */
  acknowledge(version: string): void;
}

export const useDeployStore = create<DeployState>()(
  persist(
    (set, get) => ({
      version: null,
      notifyRefresh: false,
      received: (version) => {
        const known = get().version;
        if (known === null) set({ version });
        else if (known !== version) set({ notifyRefresh: true });
      },
      acknowledge: (version) => set({ version, notifyRefresh: false }),
    }),
    { name: 'vyuha-deploy', storage: createJSONStorage(() => localStorage) },
  ),
);
