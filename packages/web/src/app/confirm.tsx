// The confirmation dialog of docs/PRODUCT.md section 2: a rich-text message, accept or reject; it closes on
// accept, reject or hide (docs/PRODUCT.md section 4).
import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

export interface ConfirmOptions {
  readonly title: string;
  /** Rich text: any React content. */
  readonly message: ReactNode;
  readonly acceptLabel?: string;
  readonly rejectLabel?: string;
  readonly danger?: boolean;
}

/** Resolves true on accept, false on reject or when the dialog is hidden. */
export function confirm(options: ConfirmOptions): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const settle = (value: boolean): void => {
      if (settled) return;
      settled = true;
      resolve(value);
    };
    modals.openConfirmModal({
      title: options.title,
      children: typeof options.message === 'string' ? <Text size="sm">{options.message}</Text> : options.message,
      labels: { confirm: options.acceptLabel ?? 'Yes', cancel: options.rejectLabel ?? 'No' },
      confirmProps: options.danger ? { color: 'red' } : {},
      onConfirm: () => settle(true),
      onCancel: () => settle(false),
      onClose: () => settle(false),
    });
  });
}
