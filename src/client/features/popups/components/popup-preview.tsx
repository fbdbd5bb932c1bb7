import { useId, useLayoutEffect, useRef, useState } from 'react';
import { type Control, useWatch } from 'react-hook-form';
import { POPUP_THEMES, type PopupForm, type PopupFormInput, type PopupTheme } from '#shared/schemas/popups';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { useConfig } from '../../config/use-config';
import { destinationSentence, previewPopup } from '../admin-popup-view';
import { popupAction } from '../login-popup-rules';
import { PopupBody, PopupPanel } from './popup-view';

const a = t.popups.admin;
const f = a.form;

/** The phone the preview is drawn on: the width the app is designed at (and the E2E viewport). */
export const PHONE_WIDTH = 390;
/** The phone's frame, drawn outside its screen. */
const BEZEL = 6;
const FRAME_WIDTH = PHONE_WIDTH + 2 * BEZEL;

const swatch: Record<PopupTheme, string> = {
  green: 'bg-emerald-600',
  purple: 'bg-violet-600',
  white: 'bg-white ring-1 ring-line',
};

/** How far the 390 px phone must shrink to fit its column (never grows). */
function usePhoneScale() {
  const ref = useRef<HTMLDivElement>(null);
  const [scale, setScale] = useState(1);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setScale(Math.min(1, element.clientWidth / FRAME_WIDTH));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, scale };
}

/**
 * The create and edit dialogs' preview: the member's popup (the same components the member's
 * dialog renders) on a phone-width screen, in the theme chosen in the form or, to compare, in
 * another one, following the form as the admin types.
 */
export function PopupPreview({ control, className }: { control: Control<PopupFormInput, unknown, PopupForm>; className?: string }) {
  const [title, message, actionLabel, actionTarget, maxSnoozes, theme] = useWatch({
    control,
    name: ['title', 'message', 'actionLabel', 'actionTarget', 'maxSnoozes', 'theme'],
  });
  const formTheme: PopupTheme = theme ?? 'purple';
  // A theme picked here is shown until the form's theme changes: then that one is.
  const [picked, setPicked] = useState<{ theme: PopupTheme; whileFormHad: PopupTheme } | null>(null);
  const shown = picked && picked.whileFormHad === formTheme ? picked.theme : formTheme;
  const { vitalScanUrl } = useConfig();
  const { ref, scale } = usePhoneScale();
  const id = useId();

  const popup = previewPopup({ title, message, actionLabel, actionTarget: typeof actionTarget === 'string' ? actionTarget : undefined, maxSnoozes, theme: shown });
  const action = popupAction(popup.actionTarget, vitalScanUrl);
  const goesTo = destinationSentence(action.kind === 'screen' ? action.to : action.kind === 'site' ? action.url : '');

  return (
    <section aria-labelledby={`${id}-title`} aria-describedby={`${id}-description`} className={cn('flex flex-col gap-3', className)}>
      <div className="flex flex-col gap-0.5">
        <h3 id={`${id}-title`} className="text-base font-bold text-ink">
          {f.preview}
        </h3>
        <p id={`${id}-description`} className="text-sm text-muted">
          {f.previewDescription}
        </p>
      </div>
      <fieldset className="flex flex-col gap-1.5">
        <legend className="mb-1.5 text-sm font-semibold text-ink">{f.previewTheme}</legend>
        <div className="grid grid-cols-3 gap-1 rounded-xl bg-canvas p-1">
          {POPUP_THEMES.map((value) => (
            <label
              key={value}
              className={cn(
                'relative flex min-h-10 cursor-pointer items-center justify-center gap-1.5 rounded-lg px-2 text-sm font-semibold text-ink has-[:focus-visible]:outline-3 has-[:focus-visible]:outline-brand',
                shown === value ? 'bg-surface shadow-sm ring-1 ring-line' : 'text-muted hover:bg-surface/60',
              )}
            >
              <input type="radio" name={`${id}-theme`} value={value} checked={shown === value} onChange={() => setPicked({ theme: value, whileFormHad: formTheme })} className="absolute inset-0 cursor-pointer opacity-0" />
              <span className={cn('size-3 shrink-0 rounded-full', swatch[value])} aria-hidden />
              <span className="truncate">{a.themes[value]}</span>
              {value === formTheme && <span className="sr-only">{f.previewThemeChosenSr}</span>}
            </label>
          ))}
        </div>
      </fieldset>
      <div ref={ref} className="w-full">
        {/* zoom (not transform) so the box the phone takes shrinks with it. */}
        <div
          data-testid="popup-preview"
          data-theme={popup.theme}
          inert
          className="mx-auto flex flex-col items-center justify-center overflow-hidden rounded-[2rem] border-ink bg-black/55 px-4 py-8"
          style={{ width: FRAME_WIDTH, borderWidth: BEZEL, zoom: scale }}
        >
          <PopupPanel popup={popup}>
            <PopupBody popup={popup} action={action} vitalScanUrl={vitalScanUrl} />
          </PopupPanel>
        </div>
      </div>
      {goesTo && <p className="text-sm text-muted">{goesTo}</p>}
    </section>
  );
}
