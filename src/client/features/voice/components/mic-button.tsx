import { Mic, MicOff } from 'lucide-react';
import { type KeyboardEvent, type PointerEvent, useEffect, useRef } from 'react';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';

interface MicButtonProps {
  listening: boolean;
  disabled: boolean;
  onPress: () => void;
  onRelease: () => void;
  describedBy?: string;
}

const isTalkKey = (key: string) => key === ' ' || key === 'Enter';

/**
 * Push-to-talk: hold to listen, let go to stop. Works with a mouse, touch (pointer events,
 * captured so a finger sliding off still releases) and the keyboard (Space or Enter held).
 * Red and pulsing while listening; aria-pressed tells screen readers the state.
 */
export function MicButton({ listening, disabled, onPress, onRelease, describedBy }: MicButtonProps) {
  const held = useRef(false);

  const press = () => {
    if (held.current) return;
    held.current = true;
    onPress();
  };
  const release = () => {
    if (!held.current) return;
    held.current = false;
    onRelease();
  };

  // A button disabled mid-hold (tab hidden, battery low) never sees its pointerup.
  useEffect(() => {
    if (disabled) held.current = false;
  }, [disabled]);

  const onPointerDown = (event: PointerEvent<HTMLButtonElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    event.preventDefault();
    event.currentTarget.setPointerCapture?.(event.pointerId);
    press();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!isTalkKey(event.key)) return;
    event.preventDefault();
    if (!event.repeat) press();
  };
  const onKeyUp = (event: KeyboardEvent<HTMLButtonElement>) => {
    if (!isTalkKey(event.key)) return;
    event.preventDefault();
    release();
  };

  // One stable name; the pressed state and the live region carry "listening".
  const label = disabled ? t.voice.micUnavailableLabel : t.voice.micLabel;
  return (
    <span className="relative inline-flex">
      {listening && <span aria-hidden className="absolute inset-0 animate-ping rounded-full bg-danger/40" />}
      <button
        type="button"
        aria-label={label}
        aria-pressed={listening}
        aria-describedby={describedBy}
        disabled={disabled}
        data-listening={listening ? 'true' : 'false'}
        onPointerDown={onPointerDown}
        onPointerUp={release}
        onPointerCancel={release}
        onLostPointerCapture={release}
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onBlur={release}
        onContextMenu={(event) => event.preventDefault()}
        className={cn(
          'relative inline-flex size-20 touch-none items-center justify-center rounded-full text-white shadow-md transition-colors select-none',
          'disabled:cursor-not-allowed disabled:bg-muted disabled:opacity-60 [&_svg]:size-8',
          listening ? 'animate-pulse bg-danger' : 'bg-brand hover:bg-brand-strong',
        )}
      >
        {disabled ? <MicOff aria-hidden /> : <Mic aria-hidden />}
      </button>
    </span>
  );
}
