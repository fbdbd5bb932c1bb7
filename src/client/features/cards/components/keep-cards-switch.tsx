import { useId, useState } from 'react';
import { cardUi } from '../../../lib/messages/card-ui';
import { Switch } from '../../../components/ui/switch';
import { readKeepCardsPreference, writeKeepCardsPreference } from '../../../lib/keep-cards';

const k = cardUi.keep;

/**
 * "Keep my cards on this device" (off by default). On: sign-out leaves the cards, and
 * /id-card shows them offline and signed out. `onChange` lets the page act on it (signed
 * out, turning it off removes the saved cards at once).
 */
export function KeepCardsSwitch({ onChange }: { onChange?: (on: boolean) => void }) {
  const id = useId();
  const [on, setOn] = useState(readKeepCardsPreference);
  const [changed, setChanged] = useState(false);
  const change = (next: boolean) => {
    writeKeepCardsPreference(next);
    const stored = readKeepCardsPreference();
    setOn(stored);
    setChanged(true);
    onChange?.(stored);
  };
  return (
    <div className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <label htmlFor={`${id}-switch`} className="text-base font-semibold text-ink">
          {k.label}
        </label>
        <Switch id={`${id}-switch`} checked={on} onCheckedChange={change} aria-describedby={`${id}-hint`} />
      </div>
      <p id={`${id}-hint`} className="text-sm text-muted">
        {k.hint}
      </p>
      <p aria-live="polite" className="text-sm font-medium text-ink empty:hidden">
        {changed ? (on ? k.on : k.off) : ''}
      </p>
    </div>
  );
}
