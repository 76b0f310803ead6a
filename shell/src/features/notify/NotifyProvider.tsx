import { Suspense, createContext, lazy, useCallback, useContext, useRef, useState, type ReactNode } from 'react';
import { useId } from '@fluentui/react-components';
import type { ToastIntent } from '@mailroom/mf-contract';
import type { ToastItem } from './ToastHost';

export type Notify = (intent: ToastIntent, message: string) => void;

const NotifyContext = createContext<Notify>(() => {});

// Most page loads show no toast: Fluent's toast code is fetched with the first one.
const ToastHost = lazy(() => import('./ToastHost'));

/** The one Toaster of the page; the shell and, through RemoteProps.notify, every remote use it. */
export function NotifyProvider({ children }: { children: ReactNode }) {
  const toasterId = useId('mailroom-toaster');
  const [items, setItems] = useState<ToastItem[]>([]);
  const lastId = useRef(0);
  const notify = useCallback<Notify>((intent, message) => {
    const id = ++lastId.current;
    setItems((current) => [...current.slice(-20), { id, intent, message }]);
  }, []);
  return (
    <NotifyContext.Provider value={notify}>
      {items.length > 0 && (
        <Suspense fallback={null}>
          <ToastHost toasterId={toasterId} items={items} />
        </Suspense>
      )}
      {children}
    </NotifyContext.Provider>
  );
}

export const useNotify = () => useContext(NotifyContext);
