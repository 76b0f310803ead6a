import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';

// The machines running the suite are shared and slow at times: wait longer before calling a query failed.
configure({ asyncUtilTimeout: 5000 });

// jsdom has no matchMedia: answer width queries from window.innerWidth (1024 unless a test changes it).
Object.defineProperty(window, 'matchMedia', {
  configurable: true,
  value: (query: string) => {
    const minWidth = /\(min-width:\s*(\d+)px\)/.exec(query);
    return {
      matches: minWidth ? window.innerWidth >= Number(minWidth[1]) : false,
      media: query,
      onchange: null,
      addEventListener: () => {},
      removeEventListener: () => {},
      addListener: () => {},
      removeListener: () => {},
      dispatchEvent: () => false,
    };
  },
});

afterEach(() => {
  cleanup();
  localStorage.clear();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

// Fluent's MessageBar and overflow helpers observe sizes; jsdom has no ResizeObserver.
class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
Object.defineProperty(window, 'ResizeObserver', { configurable: true, value: ResizeObserverStub });
