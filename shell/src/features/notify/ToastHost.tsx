import { useEffect, useRef } from 'react';
import { Toast, ToastTitle, Toaster, useToastController } from '@fluentui/react-components';
import type { ToastIntent } from '@mailroom/mf-contract';

/** docs/product.md, Limits and constants: success toasts hide after 3 s, warning, info and error after 4 s. */
export const TOAST_TIMEOUT_MS: Record<ToastIntent, number> = { success: 3000, info: 4000, warning: 4000, error: 4000 };

export interface ToastItem {
  id: number;
  intent: ToastIntent;
  message: string;
}

/** The Toaster (top end) and the toasts asked for so far; each item is shown once. */
export default function ToastHost({ toasterId, items }: { toasterId: string; items: ToastItem[] }) {
  const { dispatchToast } = useToastController(toasterId);
  const shown = useRef(0);
  useEffect(() => {
    for (const { id, intent, message } of items) {
      if (id <= shown.current) continue;
      shown.current = id;
      dispatchToast(
        <Toast>
          <ToastTitle>{message}</ToastTitle>
        </Toast>,
        { intent, timeout: TOAST_TIMEOUT_MS[intent], position: 'top-end', politeness: intent === 'error' ? 'assertive' : 'polite' },
      );
    }
  }, [items, dispatchToast]);
  return <Toaster toasterId={toasterId} position="top-end" pauseOnHover />;
}
