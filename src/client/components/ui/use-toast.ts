import { useSyncExternalStore } from 'react';

/** Spec section 9: one toast at a time; a dismissed toast is removed after this delay. */
export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;

export interface ToastData {
  id: string;
  title: string;
  description?: string | undefined;
  variant?: 'default' | 'destructive' | 'success';
  open: boolean;
}

type Listener = () => void;
let toasts: ToastData[] = [];
const listeners = new Set<Listener>();
const timers = new Map<string, ReturnType<typeof setTimeout>>();
let counter = 0;

function emit(next: ToastData[]) {
  toasts = next;
  for (const l of listeners) l();
}

export function dismissToast(id: string) {
  emit(toasts.map((x) => (x.id === id ? { ...x, open: false } : x)));
  if (!timers.has(id)) {
    timers.set(
      id,
      setTimeout(() => {
        timers.delete(id);
        emit(toasts.filter((x) => x.id !== id));
      }, TOAST_REMOVE_DELAY),
    );
  }
}

/** Shows a toast; the newest replaces any older one. */
export function toast(input: Omit<ToastData, 'id' | 'open'>) {
  counter += 1;
  const id = String(counter);
  emit([{ ...input, id, open: true }, ...toasts].slice(0, TOAST_LIMIT));
  return id;
}

const noToasts: ToastData[] = [];

export function useToasts(): ToastData[] {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => toasts,
    // A screen drawn ahead of time (app/static-screen.tsx) has none.
    () => noToasts,
  );
}
