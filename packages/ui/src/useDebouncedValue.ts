import { useEffect, useState } from 'react';

/** The value, updated only once it has stayed unchanged for `delayMs` (500 ms: the spec's search debounce). */
export function useDebouncedValue<T>(value: T, delayMs = 500): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delayMs);
    return () => clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}
