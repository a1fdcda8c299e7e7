// Toasts of docs/PRODUCT.md section 8: top-center (group 'tc'), 3000 ms, severities error, warn, success, info.
import { notifications } from '@mantine/notifications';

export type ToastSeverity = 'error' | 'warn' | 'success' | 'info';

/** docs/PRODUCT.md section 9: toast life 3000 ms. */
export const TOAST_LIFE_MS = 3000;

const COLORS: Record<ToastSeverity, string> = { error: 'red', warn: 'yellow', success: 'teal', info: 'blue' };
const TITLES: Record<ToastSeverity, string> = { error: 'Error', warn: 'Warning', success: 'Success', info: 'Info' };

/** Shows a toast; `sticky` keeps it until closed (no auto-close). */
export function showToast(severity: ToastSeverity, message: string, options: { sticky?: boolean; id?: string } = {}): void {
  notifications.show({
    ...(options.id ? { id: options.id } : {}),
    title: TITLES[severity],
    message,
    color: COLORS[severity],
    autoClose: options.sticky ? false : TOAST_LIFE_MS,
    withCloseButton: true,
  });
}
