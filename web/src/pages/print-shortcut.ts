import { useEffect, useRef } from 'react';

/**
 * "P" prints (a packing station works from the keyboard and a scanner): the handler runs when P
 * is pressed outside a text field, without a modifier (Ctrl+P stays the browser's).
 */
export function usePrintShortcut(onPrint: (() => void) | null): void {
  const handler = useRef(onPrint);
  handler.current = onPrint;
  useEffect(() => {
    const listener = (e: KeyboardEvent) => {
      if (e.key !== 'p' && e.key !== 'P') return;
      if (e.ctrlKey || e.metaKey || e.altKey || !handler.current) return;
      const target = e.target as HTMLElement | null;
      if (target && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName))) return;
      e.preventDefault();
      handler.current();
    };
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);
}
