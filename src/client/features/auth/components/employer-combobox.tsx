import { type ComponentProps, type KeyboardEvent, useEffect, useId, useState } from 'react';
import { Input } from '../../../components/ui/input';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useEmployerSuggestions } from '../api/employer-suggestions';

const s = t.enrolment.suggestions;
/** Suggestions are asked for once the member pauses typing this long. */
export const SUGGEST_DEBOUNCE_MS = 250;

function useDebounced(value: string, ms: number) {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}

type EmployerComboboxProps = ComponentProps<'input'> & {
  /** A suggestion was chosen: the form takes it as the field's value. */
  onChoose: (name: string) => void;
};

/**
 * The Employer field with suggestions from existing employers (ARIA 1.2 combobox with a list
 * box): they appear under the field as the member types, arrow keys move through them, Enter
 * or a tap takes one, Escape closes them; the count is announced. Typing a name that is not
 * suggested is fine: the list only helps members find their employer's exact name.
 */
export function EmployerCombobox({ onChoose, onChange, onBlur, onKeyDown, className, ...inputProps }: EmployerComboboxProps) {
  const listId = useId();
  const [typed, setTyped] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const suggestions = useEmployerSuggestions(useDebounced(typed, SUGGEST_DEBOUNCE_MS));
  const names = (suggestions.data?.employers ?? []).map((e) => e.name);
  // Nothing to offer when the only suggestion is what is already there.
  const offered = names.length === 1 && names[0]!.toLowerCase() === typed.trim().toLowerCase() ? [] : names;
  const expanded = open && offered.length > 0 && typed.trim().length >= 3;
  const optionId = (i: number) => `${listId}-option-${i}`;

  const choose = (name: string) => {
    onChoose(name);
    setTyped(name);
    setOpen(false);
    setActive(-1);
  };

  const keys = (event: KeyboardEvent<HTMLInputElement>) => {
    onKeyDown?.(event);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      if (!expanded) {
        if (offered.length > 0) setOpen(true);
        return;
      }
      event.preventDefault();
      const n = offered.length;
      setActive((i) => (event.key === 'ArrowDown' ? (i + 1) % n : i <= 0 ? n - 1 : i - 1));
      return;
    }
    if (event.key === 'Enter' && expanded && active >= 0 && active < offered.length) {
      event.preventDefault();
      choose(offered[active]!);
      return;
    }
    if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setOpen(false);
      setActive(-1);
    }
  };

  return (
    <div className="flex flex-col gap-1">
      <Input
        {...inputProps}
        className={className}
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 && active < offered.length ? optionId(active) : undefined}
        onChange={(event) => {
          void onChange?.(event);
          setTyped(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onBlur={(event) => {
          void onBlur?.(event);
          setOpen(false);
          setActive(-1);
        }}
        onKeyDown={keys}
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={s.label}
        hidden={!expanded}
        className="flex flex-col overflow-hidden rounded-xl border border-line bg-surface shadow-md"
      >
        {offered.map((name, i) => (
          <li
            key={name}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            // Keeps focus in the field, so choosing does not first blur (and close) the list.
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(name)}
            className={cn(
              'flex min-h-12 cursor-pointer items-center border-b border-line px-4 text-base text-ink last:border-b-0',
              i === active ? 'bg-brand-soft font-semibold text-brand-ink' : 'hover:bg-canvas',
            )}
          >
            {name}
          </li>
        ))}
      </ul>
      <p className="sr-only" aria-live="polite">
        {expanded ? s.count(offered.length) : ''}
      </p>
    </div>
  );
}
