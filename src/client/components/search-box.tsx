import { Search } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Input } from './ui/input';

const DEBOUNCE_MS = 300;

/**
 * Text bound to a value kept elsewhere (the URL query): typing reaches `commit` after a
 * pause, and the text follows the value when it changes on its own (back button, shared link).
 */
export function useSearchBox(value: string, commit: (value: string) => void): [string, (value: string) => void] {
  const [input, setInput] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    // Adjusting state while rendering (not in an effect) is React's pattern for "reset on prop change".
    setSeen(value);
    setInput(value);
  }
  useEffect(() => {
    if (input === value) return;
    const timer = setTimeout(() => commit(input), DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [input, value, commit]);
  return [input, setInput];
}

/** A search field with the magnifier icon, debounced into `onCommit` (keep that callback stable). */
export function SearchBox({ value, onCommit, label, placeholder }: { value: string; onCommit: (value: string) => void; label: string; placeholder: string }) {
  const [input, setInput] = useSearchBox(value, onCommit);
  return (
    <div className="relative">
      <Search className="pointer-events-none absolute top-1/2 left-4 size-5 -translate-y-1/2 text-muted" aria-hidden />
      <Input type="search" className="pl-12" placeholder={placeholder} aria-label={label} maxLength={100} value={input} onChange={(e) => setInput(e.target.value)} />
    </div>
  );
}
