import { Check, X } from 'lucide-react';
import { type KeyboardEvent, useEffect, useId, useMemo, useRef, useState } from 'react';
import { Label } from '../../../components/ui/label';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useEmployerSearch } from '../api/search-employers';
import { MAX_OPTIONS, employerName, moveActive, toggleId } from '../audience-picker-logic';
import { useDebouncedValue } from '../use-debounced-value';

const f = t.popups.admin.form;

interface AudiencePickerProps {
  value: readonly string[];
  onChange: (ids: string[]) => void;
  disabled?: boolean;
  error?: string | undefined;
}

/**
 * Chosen employers: a searchable multi-select on the WAI-ARIA combobox pattern (an editable
 * combobox with a multi-selectable listbox). Focus stays in the text box; the arrow keys move
 * the active option (aria-activedescendant), Enter or a click adds or removes it, Escape closes
 * the list (not the dialog), Backspace in an empty box removes the last chip. Each chosen
 * employer is a chip with its own Remove button. The search is the admin employer list's.
 */
export function AudiencePicker({ value, onChange, disabled = false, error }: AudiencePickerProps) {
  const id = useId();
  const inputId = `${id}-input`;
  const listId = `${id}-list`;
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const search = useDebouncedValue(text, 250);

  // Names of the chosen: the whole list (no search) once anything is chosen or the list opens,
  // so an edited popup's chips have names; the searched list while typing.
  const all = useEmployerSearch('', open || value.length > 0);
  const found = useEmployerSearch(search, open && search.trim() !== '');
  const names = useMemo(() => {
    const map = new Map<string, string>();
    for (const e of all.data?.employers ?? []) map.set(e.id, e.name);
    for (const e of found.data?.employers ?? []) map.set(e.id, e.name);
    return map;
  }, [all.data, found.data]);

  const source = search.trim() ? found : all;
  const matches = source.data?.employers ?? [];
  const options = matches.slice(0, MAX_OPTIONS);
  const expanded = open && options.length > 0;
  const optionId = (i: number) => `${id}-option-${i}`;

  useEffect(() => {
    if (expanded && active >= 0) document.getElementById(`${id}-option-${active}`)?.scrollIntoView({ block: 'nearest' });
  }, [active, expanded, id]);

  const toggle = (employerId: string) => onChange(toggleId(value, employerId));
  const remove = (employerId: string) => {
    onChange(value.filter((x) => x !== employerId));
    inputRef.current?.focus();
  };

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    switch (event.key) {
      case 'ArrowDown':
      case 'ArrowUp': {
        event.preventDefault();
        if (!open) {
          setOpen(true);
          if (!event.altKey) setActive(moveActive(-1, options.length, event.key));
          return;
        }
        setActive(moveActive(active, options.length, event.key));
        return;
      }
      case 'Enter': {
        // Never submits the form from here: Enter chooses.
        event.preventDefault();
        const option = expanded && active >= 0 ? options[active] : undefined;
        if (option) toggle(option.id);
        else setOpen(true);
        return;
      }
      case 'Escape': {
        // The dialog leaves an open list's Escape to it (popup-form-dialog).
        if (open) {
          setOpen(false);
          setActive(-1);
        } else if (text) {
          setText('');
        }
        return;
      }
      case 'Backspace': {
        const last = value.at(-1);
        if (text === '' && last !== undefined) {
          event.preventDefault();
          onChange(value.slice(0, -1));
        }
        return;
      }
      case 'Tab':
        setOpen(false);
        setActive(-1);
        return;
    }
  }

  let note: string | null = null;
  if (open) {
    if (source.isError) note = f.employersLoadError;
    else if (source.isPending || text !== search) note = options.length === 0 ? f.employersLoading : null;
    else if (options.length === 0) note = f.employersNone;
    else if (matches.length > options.length) note = f.employersMore(matches.length - options.length);
  }

  return (
    <div className="flex flex-col gap-1.5">
      <Label htmlFor={inputId}>{f.employers}</Label>
      <p id={hintId} className="text-sm text-muted">
        {f.employersHint}
      </p>
      {value.length > 0 && (
        <ul aria-label={f.employersChosen} className="flex flex-wrap gap-2">
          {value.map((employerId) => {
            const name = employerName(names, employerId, f.unknownEmployer);
            return (
              <li key={employerId} className="flex max-w-full items-center gap-1 rounded-full bg-brand-soft py-1 pr-1 pl-3 text-sm font-semibold text-brand-ink">
                <span className="min-w-0 break-words">{name}</span>
                <button
                  type="button"
                  className="inline-flex size-8 shrink-0 items-center justify-center rounded-full hover:bg-ink/10 disabled:opacity-60"
                  aria-label={f.removeEmployer(name)}
                  disabled={disabled}
                  onClick={() => remove(employerId)}
                >
                  <X className="size-4" aria-hidden />
                </button>
              </li>
            );
          })}
        </ul>
      )}
      <input
        ref={inputRef}
        id={inputId}
        type="text"
        role="combobox"
        autoComplete="off"
        spellCheck={false}
        placeholder={f.employersPlaceholder}
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
        disabled={disabled}
        value={text}
        className="min-h-12 w-full rounded-xl border border-line bg-surface px-4 text-base text-ink placeholder:text-muted focus-visible:border-brand aria-invalid:border-danger disabled:opacity-60"
        onChange={(event) => {
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        onClick={() => setOpen((was) => !was)}
        onKeyDown={onKeyDown}
        onBlur={(event) => {
          if (!listRef.current?.contains(event.relatedTarget)) {
            setOpen(false);
            setActive(-1);
          }
        }}
      />
      <ul
        ref={listRef}
        id={listId}
        role="listbox"
        aria-multiselectable="true"
        aria-label={f.employersListLabel}
        hidden={!expanded}
        className="max-h-64 overflow-y-auto rounded-xl border border-line bg-surface p-1 shadow-sm"
      >
        {expanded &&
          options.map((employer, i) => {
            const chosen = value.includes(employer.id);
            return (
              <li
                key={employer.id}
                id={optionId(i)}
                role="option"
                aria-selected={chosen}
                className={cn(
                  'relative flex min-h-12 cursor-pointer items-center rounded-lg pr-3 pl-9 text-base text-ink select-none',
                  i === active && 'bg-brand-soft outline-2 outline-brand',
                  chosen && 'font-semibold',
                )}
                // Keep focus in the text box: the click chooses, the box keeps typing.
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => {
                  setActive(i);
                  toggle(employer.id);
                }}
              >
                {chosen && <Check className="absolute left-2 size-5 text-brand-ink" aria-hidden />}
                <span className="break-words">{employer.name}</span>
              </li>
            );
          })}
      </ul>
      <p className={cn('text-sm text-muted', !note && 'sr-only')} aria-live="polite">
        {note ?? f.employersCount(value.length)}
      </p>
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
