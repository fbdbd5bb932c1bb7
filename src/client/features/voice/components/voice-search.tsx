import { BatteryLow, Mic, MicOff } from 'lucide-react';
import { useId } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Switch } from '../../../components/ui/switch';
import { t } from '../../../lib/i18n';
import type { VoiceSupport } from '../browser-support';
import { useSecondClock, useVoiceSession, useVoiceSupport } from '../use-voice';
import { SESSION_MS, availability, isBatteryTooLow, isLowBatteryWarning, secondsRemaining, type VoiceSessionState } from '../voice-session';
import { MicButton } from './mic-button';
import { VoiceActivityPanel } from './voice-activity-panel';

const v = t.voice;

/** The voice block on Home: hands-free navigation by speaking a service name (spec sections 4, 5, 8). */
export function VoiceSearch() {
  const support = useVoiceSupport();
  return support.supported ? <VoiceBlock support={support} /> : <VoiceNotSupported />;
}

function VoiceNotSupported() {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId} className="flex items-start gap-3" data-testid="voice-search">
      <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-canvas text-muted">
        <MicOff className="size-5" aria-hidden />
      </span>
      <div className="flex flex-col gap-1">
        <h2 id={titleId} className="text-lg font-bold">
          {v.notSupported}
        </h2>
        <p className="text-sm text-muted">{v.notSupportedHint}</p>
      </div>
    </Card>
  );
}

function offText(state: VoiceSessionState): string {
  if (state.hidden) return v.pausedHidden;
  if (isBatteryTooLow(state.batteryPercent)) return v.pausedBattery;
  if (state.lastEndReason === 'timeout') return v.endedTimeout;
  if (state.lastEndReason === 'low_battery') return v.endedLowBattery;
  return v.off;
}

function VoiceBlock({ support }: { support: VoiceSupport }) {
  const { state, dispatch } = useVoiceSession(support);
  const now = useSecondClock(state.enabled);
  const titleId = useId();
  const switchId = useId();
  const hintId = useId();
  const available = availability(state);
  const startBlocked = state.hidden || isBatteryTooLow(state.batteryPercent);
  const seconds = Math.min(SESSION_MS / 1000, secondsRemaining(state, now) ?? 0);
  const hint = available === 'hidden' ? v.pausedHidden : available === 'low_battery' ? v.pausedBattery : v.micHint;

  return (
    <Card aria-labelledby={titleId} className="flex flex-col gap-4" data-testid="voice-search">
      <div className="flex flex-wrap items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-soft text-brand-ink">
          <Mic className="size-5" aria-hidden />
        </span>
        <h2 id={titleId} className="text-lg font-bold">
          {v.title}
        </h2>
        <div className="ml-auto flex items-center gap-2">
          <label htmlFor={switchId} className="text-sm font-semibold">
            {v.killSwitch}
          </label>
          <Switch
            id={switchId}
            checked={state.enabled}
            disabled={!state.enabled && startBlocked}
            onCheckedChange={() => dispatch({ type: 'toggle_voice' })}
          />
        </div>
      </div>
      <p className="text-sm text-muted">{v.description}</p>

      {state.consentUntil !== null && (
        <Alert variant="info" data-testid="voice-consent">
          {v.consent}
        </Alert>
      )}

      {isLowBatteryWarning(state.batteryPercent) && state.batteryPercent !== null && (
        <div
          role="status"
          data-testid="voice-low-battery"
          className="flex items-center gap-2 rounded-xl border border-warning/30 bg-warning-soft px-4 py-3 text-sm font-medium text-warning"
        >
          <BatteryLow className="size-5 shrink-0" aria-hidden />
          {v.lowBatteryWarning(state.batteryPercent)}
        </div>
      )}

      {state.enabled ? (
        <div className="flex flex-col items-center gap-3">
          <MicButton
            listening={state.listening}
            disabled={available !== 'available'}
            describedBy={hintId}
            onPress={() => dispatch({ type: 'press' })}
            onRelease={() => dispatch({ type: 'release' })}
          />
          <p role="status" className="min-h-5 text-center text-sm font-semibold text-danger" data-testid="voice-listening">
            {state.listening ? v.listening : ''}
          </p>
          <p id={hintId} className="max-w-xs text-center text-sm text-muted">
            {hint}
          </p>
          <p className="text-xs text-muted" data-testid="voice-countdown">
            {v.sessionRemaining(seconds)}
          </p>
        </div>
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm text-muted">{offText(state)}</p>
          <Button size="lg" disabled={startBlocked} onClick={() => dispatch({ type: 'start_session' })}>
            <Mic aria-hidden />
            {v.startSession}
          </Button>
        </div>
      )}

      <div data-testid="voice-message">
        {state.message && (
          <Alert variant={state.message.tone === 'error' ? 'danger' : 'success'}>{state.message.text}</Alert>
        )}
      </div>

      <VoiceActivityPanel log={state.log} />
    </Card>
  );
}
