import { zodResolver } from '@hookform/resolvers/zod';
import { Select as SelectPrimitive } from 'radix-ui';
import { Check, ChevronDown, Info } from 'lucide-react';
import { type ReactNode, useId, useRef, useState } from 'react';
import { type Control, Controller, type FieldErrors, useForm, useWatch } from 'react-hook-form';
import {
  type AdminPopup,
  POPUP_RECURRENCES,
  POPUP_TARGETS,
  POPUP_THEMES,
  type PopupAudience,
  type PopupForm,
  type PopupFormInput,
  PopupFormSchema,
} from '#shared/schemas/popups';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Label } from '../../../components/ui/label';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { FormField } from '../../../components/form-field';
import { serverMessageOr } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { t } from '../../../lib/i18n';
import { SubmissionKey } from '../../../lib/submission-key';
import { applyServerError, useFocusAfterSubmit } from '../../../lib/hook-form-errors';
import { useConfig } from '../../config/use-config';
import {
  destinationOptions,
  emptyPopupForm,
  fromLocalInputValue,
  parseIntegerInput,
  parseOptionalIntegerInput,
  popupToForm,
  quietHoursFromInputs,
  reachText,
  toLocalInputValue,
} from '../admin-popup-view';
import { useCreatePopup } from '../api/create-popup';
import { useActionUrls } from '../api/get-action-urls';
import { usePopupReach } from '../api/get-popup-reach';
import { useUpdatePopup } from '../api/update-popup';
import { useDebouncedValue } from '../use-debounced-value';
import { AudiencePicker } from './audience-picker';
import { PopupPreview } from './popup-preview';

const a = t.popups.admin;
const f = a.form;
const fieldNames = Object.keys(emptyPopupForm()) as (keyof PopupFormInput)[];

const targetOptions = POPUP_TARGETS.map((value) => ({ value, label: a.targets[value] }));
const recurrenceOptions = POPUP_RECURRENCES.map((value) => ({ value, label: a.recurrences[value] }));
const themeOptions = POPUP_THEMES.map((value) => ({ value, label: a.themes[value] }));

function timeZoneNames(): string[] {
  try {
    return ['UTC', ...Intl.supportedValuesOf('timeZone')];
  } catch {
    return ['UTC'];
  }
}

/** Suggestions for the timezone input; any real IANA name is accepted. */
const zones = timeZoneNames();

type FormControl = Control<PopupFormInput, unknown, PopupForm>;

/** What Field hands its control: the label's target id and the error/hint wiring. */
interface FieldWiring {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

interface ControlledProps<N extends keyof PopupFormInput> extends FieldWiring {
  control: FormControl;
  name: N;
  disabled: boolean;
  /** Editing a field clears its message (spec section 5). */
  onEdited: () => void;
}

/** A Radix select bound to the form; forwards Field's id and aria wiring to the trigger. */
function FormSelect({
  control,
  name,
  options,
  disabled,
  onEdited,
  ...wiring
}: ControlledProps<'target' | 'recurrence' | 'theme'> & { options: readonly { value: string; label: string }[] }) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Select
          {...wiring}
          options={options}
          value={field.value ?? ''}
          disabled={disabled}
          onValueChange={(v) => {
            field.onChange(v);
            onEdited();
          }}
        />
      )}
    />
  );
}

/** A datetime-local input showing the browser's local time; the form holds the ISO instant. */
function FormDateTime({ control, name, disabled, onEdited, ...wiring }: ControlledProps<'startAt' | 'endAt'>) {
  return (
    <Controller
      control={control}
      name={name}
      render={({ field }) => (
        <Input
          {...wiring}
          type="datetime-local"
          name={field.name}
          ref={field.ref}
          onBlur={field.onBlur}
          disabled={disabled}
          value={toLocalInputValue(field.value ?? '')}
          onChange={(e) => {
            field.onChange(fromLocalInputValue(e.target.value));
            onEdited();
          }}
        />
      )}
    />
  );
}

const itemClass =
  'relative flex min-h-12 cursor-pointer items-center rounded-lg py-2 pr-3 pl-9 text-base break-words outline-none select-none data-[highlighted]:bg-brand-soft';

/**
 * The button's destination: the app's member screens, then the allow-listed websites, in two
 * labelled groups (Radix Select). Empty on a new popup means the vital-scan site, shown as it.
 */
function DestinationSelect({ control, disabled, onEdited, ...wiring }: Omit<ControlledProps<'actionTarget'>, 'name'>) {
  const { vitalScanUrl } = useConfig();
  const urls = useActionUrls();
  return (
    <Controller
      control={control}
      name="actionTarget"
      render={({ field }) => {
        // The schema reads this field through a preprocess, so the form types it as unknown.
        const current = typeof field.value === 'string' ? field.value : undefined;
        const options = destinationOptions(urls.data?.urls ?? [], vitalScanUrl, current);
        const value = current || vitalScanUrl;
        return (
          <SelectPrimitive.Root
            value={value}
            disabled={disabled}
            onValueChange={(v) => {
              field.onChange(v);
              onEdited();
            }}
          >
            <SelectPrimitive.Trigger
              {...wiring}
              className="flex min-h-12 w-full items-center justify-between gap-2 rounded-xl border border-line bg-surface px-4 py-2 text-left text-base text-ink focus-visible:border-brand aria-invalid:border-danger"
            >
              <span className="min-w-0 break-all">
                <SelectPrimitive.Value />
              </span>
              <SelectPrimitive.Icon>
                <ChevronDown className="size-5 text-muted" aria-hidden />
              </SelectPrimitive.Icon>
            </SelectPrimitive.Trigger>
            <SelectPrimitive.Portal>
              <SelectPrimitive.Content
                position="popper"
                sideOffset={4}
                className="z-50 max-h-[min(24rem,var(--radix-select-content-available-height))] w-[var(--radix-select-trigger-width)] overflow-hidden rounded-xl border border-line bg-surface shadow-xl"
              >
                <SelectPrimitive.Viewport className="p-1">
                  {[
                    { label: f.actionTargetScreens, items: options.screens },
                    { label: f.actionTargetSites, items: options.sites },
                  ].map((group) =>
                    group.items.length === 0 ? null : (
                      <SelectPrimitive.Group key={group.label}>
                        <SelectPrimitive.Label className="px-3 pt-3 pb-1 text-xs font-bold tracking-wide text-muted uppercase">{group.label}</SelectPrimitive.Label>
                        {group.items.map((o) => (
                          <SelectPrimitive.Item key={o.value} value={o.value} className={itemClass}>
                            <SelectPrimitive.ItemIndicator className="absolute left-2">
                              <Check className="size-5 text-brand-ink" aria-hidden />
                            </SelectPrimitive.ItemIndicator>
                            <SelectPrimitive.ItemText>{o.label}</SelectPrimitive.ItemText>
                          </SelectPrimitive.Item>
                        ))}
                      </SelectPrimitive.Group>
                    ),
                  )}
                </SelectPrimitive.Viewport>
              </SelectPrimitive.Content>
            </SelectPrimitive.Portal>
          </SelectPrimitive.Root>
        );
      }}
    />
  );
}

/** The first message anywhere under a field (a server error lands on the field, the schema's on its parts). */
function messageUnder(errors: FieldErrors<PopupFormInput>, name: 'audience' | 'quietHours'): string | undefined {
  const node = errors[name] as { message?: unknown; [part: string]: unknown } | undefined;
  if (!node) return undefined;
  if (typeof node.message === 'string' && node.message) return node.message;
  for (const child of Object.values(node)) {
    const message = typeof child === 'object' && child !== null ? (child as { message?: unknown }).message : undefined;
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}

/** "Reaches about N members", asked of the server once the audience has settled. */
function Reach({ control }: { control: FormControl }) {
  const audience = useWatch({ control, name: 'audience' }) as PopupAudience | undefined;
  const key = JSON.stringify(audience ?? null);
  const settled = useDebouncedValue(key, 400);
  const reach = usePopupReach(JSON.parse(settled) as PopupAudience | null);
  // While a new count is on its way the last one stays (it is "about" anyway).
  const text = reach.isError ? f.reachFailed : reach.data ? reachText(reach.data.audienceSize) : f.reachCounting;
  return (
    <p className={cn('rounded-xl bg-brand-soft px-4 py-3 text-sm font-semibold text-brand-ink', reach.isError && 'bg-warning-soft text-warning')} aria-live="polite" data-testid="popup-reach">
      {text}
    </p>
  );
}

type AudienceMode = 'all' | 'chosen';

interface AudienceFieldsProps {
  control: FormControl;
  mode: AudienceMode;
  onModeChange: (mode: AudienceMode) => void;
  disabled: boolean;
  error: string | undefined;
  onEdited: () => void;
}

/** Who the popup is for: every employer or chosen ones, optionally narrowed; the count it reaches. */
function AudienceFields({ control, mode, onModeChange, disabled, error, onEdited }: AudienceFieldsProps) {
  // Switching to All employers and back keeps what was chosen.
  const kept = useRef<string[]>([]);
  const id = 'popup-audience';
  return (
    <Controller
      control={control}
      name="audience.companyIds"
      render={({ field }) => (
        <div className="flex flex-col gap-3">
          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1.5 text-sm font-semibold text-ink">{f.audience}</legend>
            {(['all', 'chosen'] as const).map((value) => (
              <label key={value} className="flex min-h-12 cursor-pointer items-center gap-3 rounded-xl border border-line px-4 has-[:checked]:border-brand has-[:checked]:bg-brand-soft">
                <input
                  type="radio"
                  name={`${id}-mode`}
                  value={value}
                  checked={mode === value}
                  disabled={disabled}
                  className="size-5 accent-brand"
                  onChange={() => {
                    onModeChange(value);
                    onEdited();
                    if (value === 'all') {
                      kept.current = field.value ?? [];
                      field.onChange([]);
                    } else {
                      field.onChange(kept.current);
                    }
                  }}
                />
                <span className="text-base text-ink">{value === 'all' ? f.audienceAll : f.audienceChosen}</span>
              </label>
            ))}
          </fieldset>
          {mode === 'chosen' && (
            <AudiencePicker
              value={field.value ?? []}
              disabled={disabled}
              error={error}
              onChange={(ids) => {
                field.onChange(ids);
                onEdited();
              }}
            />
          )}
          {mode === 'all' && error && <p className="text-sm font-medium text-danger">{error}</p>}
          <div className="flex flex-col gap-1">
            {(['enrolledOnly', 'withFamilyOnly'] as const).map((name) => (
              <Controller
                key={name}
                control={control}
                name={`audience.${name}`}
                render={({ field: box }) => (
                  <label className="flex min-h-12 cursor-pointer items-center gap-3 text-base text-ink">
                    <input
                      type="checkbox"
                      className="size-5 shrink-0 accent-brand"
                      checked={box.value ?? false}
                      disabled={disabled}
                      onChange={(e) => {
                        box.onChange(e.target.checked);
                        onEdited();
                      }}
                    />
                    {name === 'enrolledOnly' ? f.enrolledOnly : f.withFamilyOnly}
                  </label>
                )}
              />
            ))}
          </div>
          {mode === 'chosen' && (field.value ?? []).length === 0 ? (
            !error && (
              <p className="rounded-xl bg-canvas px-4 py-3 text-sm text-muted" aria-live="polite">
                {f.employersRequired}
              </p>
            )
          ) : (
            <Reach control={control} />
          )}
        </div>
      )}
    />
  );
}

/** Two time inputs; both empty is the programme's setting (null). */
function QuietHoursFields({ control, disabled, error, onEdited }: { control: FormControl; disabled: boolean; error: string | undefined; onEdited: () => void }) {
  const hintId = 'popup-quiet-hours-hint';
  const errorId = 'popup-quiet-hours-error';
  return (
    <Controller
      control={control}
      name="quietHours"
      render={({ field }) => {
        const start = field.value?.start ?? '';
        const end = field.value?.end ?? '';
        const set = (next: { start: string; end: string }) => {
          field.onChange(quietHoursFromInputs(next.start, next.end));
          onEdited();
        };
        const describedBy = [hintId, error ? errorId : null].filter(Boolean).join(' ');
        return (
          <fieldset className="flex flex-col gap-1.5">
            <legend className="mb-1.5 flex w-full flex-wrap items-center justify-between gap-2 text-sm font-semibold text-ink">
              {f.quietHours}
              <span className="rounded-full bg-canvas px-2.5 py-0.5 text-xs font-semibold text-muted ring-1 ring-line" data-testid="quiet-hours-state">
                {start === '' && end === '' ? f.useProgrammeSetting : f.quietHoursSet(start || '--:--', end || '--:--')}
              </span>
            </legend>
            <div className="grid grid-cols-2 gap-4">
              {(['start', 'end'] as const).map((part) => (
                <div key={part} className="flex flex-col gap-1.5">
                  <Label htmlFor={`popup-quiet-${part}`} className="font-normal">
                    {part === 'start' ? f.quietHoursStart : f.quietHoursEnd}
                  </Label>
                  <Input
                    id={`popup-quiet-${part}`}
                    type="time"
                    step={60}
                    disabled={disabled}
                    value={part === 'start' ? start : end}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={describedBy}
                    onChange={(e) => set(part === 'start' ? { start: e.target.value, end } : { start, end: e.target.value })}
                  />
                </div>
              ))}
            </div>
            <p id={hintId} className="text-sm text-muted">
              {f.quietHoursHint}
            </p>
            {error && (
              <p id={errorId} className="text-sm font-medium text-danger">
                {error}
              </p>
            )}
          </fieldset>
        );
      }}
    />
  );
}

function Section({ title, children, className }: { title: string; children: ReactNode; className?: string }) {
  const id = useId();
  return (
    <section className={cn('flex flex-col gap-4', className)} aria-labelledby={id}>
      <h3 id={id} className="border-b border-line pb-1 text-sm font-bold tracking-wide text-muted uppercase">
        {title}
      </h3>
      {children}
    </section>
  );
}

interface PopupFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The popup to edit; absent for the create dialog. */
  popup?: AdminPopup | undefined;
}

/**
 * Create New Popup / Edit Popup (spec sections 2, 4, 5; issue 12: action, audience, limits,
 * preview). The shared schema validates here and on the server; server field errors land
 * under the same inputs. Beside the fields (below them on a phone) the popup as a member sees it.
 */
export function PopupFormDialog({ open, onOpenChange, popup }: PopupFormDialogProps) {
  const editing = popup !== undefined;
  const create = useCreatePopup();
  const update = useUpdatePopup();
  const [submission] = useState(() => new SubmissionKey());
  const form = useForm<PopupFormInput, unknown, PopupForm>({
    resolver: zodResolver(PopupFormSchema),
    defaultValues: popup ? popupToForm(popup) : emptyPopupForm(),
    reValidateMode: 'onSubmit',
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting;
  const focusLater = useFocusAfterSubmit(form, busy);
  const initialMode: AudienceMode = popup && popup.audience.companyIds.length > 0 ? 'chosen' : 'all';
  const [audienceMode, setAudienceMode] = useState<AudienceMode>(initialMode);

  const onSubmit = form.handleSubmit(async (values) => {
    // "Chosen employers" with none chosen would save as every employer: ask instead.
    if (audienceMode === 'chosen' && values.audience.companyIds.length === 0) {
      form.setError('audience.companyIds', { message: f.employersRequired }, { shouldFocus: true });
      return;
    }
    try {
      if (popup) {
        await update.mutateAsync({ id: popup.id, body: values });
        toast({ title: a.toastSuccess, description: a.updated, variant: 'success' });
        onOpenChange(false);
      } else {
        await create.mutateAsync({ body: values, idempotencyKey: submission.keyFor(values) });
        submission.settle();
        toast({ title: a.toastSuccess, description: a.created, variant: 'success' });
        form.reset(emptyPopupForm());
        setAudienceMode('all');
        onOpenChange(false);
      }
    } catch (err) {
      submission.settle(err);
      const fallback = editing ? a.updateFailed : a.createFailed;
      applyServerError(form, err, fieldNames, fallback, focusLater);
      // Spec: the 'Error' toast carries the server's message (else the fallback), field messages or not.
      toast({ title: a.toastError, description: serverMessageOr(err, fallback), variant: 'destructive' });
    }
  });

  const clear = (name: keyof PopupFormInput) => () => form.clearErrors(name);
  const integer = { setValueAs: parseIntegerInput };

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent
        title={editing ? a.editTitle : a.createTitle}
        description={editing ? a.editDescription : a.createDescription}
        className="lg:max-w-5xl"
        onEscapeKeyDown={(event) => {
          // Escape in the employer search closes its list, then clears its text (audience-picker),
          // and only then closes the dialog.
          const target = event.target;
          if (target instanceof HTMLInputElement && target.getAttribute('role') === 'combobox' && (target.getAttribute('aria-expanded') === 'true' || target.value !== '')) {
            event.preventDefault();
          }
        }}
      >
        <form className="grid grid-cols-1 gap-6 lg:grid-cols-[minmax(0,1fr)_minmax(0,24rem)] lg:gap-x-8" onSubmit={onSubmit} noValidate>
          <Section title={f.sectionContent} className="lg:col-start-1">
            <FormField form={form} name="title" label={f.title} disabled={busy}>
              <Input autoComplete="off" maxLength={200} />
            </FormField>
            <FormField form={form} name="message" label={f.message} disabled={busy}>
              <Textarea rows={3} maxLength={1000} />
            </FormField>
            <FormField form={form} name="actionLabel" label={f.actionLabel} hint={f.actionLabelHint} disabled={busy}>
              <Input autoComplete="off" maxLength={80} />
            </FormField>
            <Field label={f.actionTarget} hint={f.actionTargetHint} error={errors.actionTarget?.message}>
              <DestinationSelect control={form.control} disabled={busy} onEdited={clear('actionTarget')} />
            </Field>
            <Field label={f.theme} error={errors.theme?.message}>
              <FormSelect control={form.control} name="theme" options={themeOptions} disabled={busy} onEdited={clear('theme')} />
            </Field>
          </Section>

          <PopupPreview control={form.control} className="lg:sticky lg:top-0 lg:col-start-2 lg:row-span-4 lg:row-start-1 lg:self-start" />

          <Section title={f.sectionSchedule} className="lg:col-start-1">
            <Field label={f.target} error={errors.target?.message}>
              <FormSelect control={form.control} name="target" options={targetOptions} disabled={busy} onEdited={clear('target')} />
            </Field>
            <Field label={f.startAt} error={errors.startAt?.message}>
              <FormDateTime control={form.control} name="startAt" disabled={busy} onEdited={clear('startAt')} />
            </Field>
            <Field label={f.endAt} error={errors.endAt?.message}>
              <FormDateTime control={form.control} name="endAt" disabled={busy} onEdited={clear('endAt')} />
            </Field>
            <div className="grid grid-cols-2 gap-4">
              <Field label={f.recurrence} error={errors.recurrence?.message}>
                <FormSelect control={form.control} name="recurrence" options={recurrenceOptions} disabled={busy} onEdited={clear('recurrence')} />
              </Field>
              <FormField form={form} name="interval" label={f.interval} hint={f.intervalHint} disabled={busy} options={integer}>
                <Input type="number" inputMode="numeric" step={1} min={1} max={24} />
              </FormField>
            </div>
            <FormField form={form} name="timezone" label={f.timezone} hint={f.timezoneHint} disabled={busy}>
              <Input list="popup-time-zones" autoComplete="off" spellCheck={false} />
            </FormField>
            <datalist id="popup-time-zones">
              {zones.map((z) => (
                <option key={z} value={z} />
              ))}
            </datalist>
          </Section>

          <Section title={f.sectionAudience} className="lg:col-start-1">
            <AudienceFields
              control={form.control}
              mode={audienceMode}
              onModeChange={setAudienceMode}
              disabled={busy}
              error={messageUnder(errors, 'audience')}
              onEdited={clear('audience')}
            />
          </Section>

          <Section title={f.sectionLimits} className="lg:col-start-1">
            <div className="grid grid-cols-2 gap-4">
              <FormField form={form} name="maxSnoozes" label={f.maxSnoozes} disabled={busy} options={integer}>
                <Input type="number" inputMode="numeric" step={1} min={0} max={10} />
              </FormField>
              <FormField form={form} name="priority" label={f.priority} disabled={busy} options={integer}>
                <Input type="number" inputMode="numeric" step={1} min={1} max={10} />
              </FormField>
            </div>
            <Field label={f.dailyCap} hint={f.dailyCapHint} error={errors.dailyCap?.message}>
              <Input
                type="number"
                inputMode="numeric"
                step={1}
                min={1}
                max={20}
                placeholder={f.useProgrammeSetting}
                disabled={busy}
                {...form.register('dailyCap', { setValueAs: parseOptionalIntegerInput, onChange: clear('dailyCap') })}
              />
            </Field>
            <QuietHoursFields control={form.control} disabled={busy} error={messageUnder(errors, 'quietHours')} onEdited={clear('quietHours')} />
            {editing ? (
              <Controller
                control={form.control}
                name="isActive"
                render={({ field }) => (
                  <div className="flex min-h-12 items-center justify-between gap-4">
                    <Label htmlFor="popup-is-active">{f.isActive}</Label>
                    <Switch id="popup-is-active" checked={field.value ?? false} disabled={busy} onCheckedChange={(v) => field.onChange(v)} />
                  </div>
                )}
              />
            ) : (
              <Controller
                control={form.control}
                name="isActive"
                render={({ field }) => (
                  <div className="flex flex-col gap-2 rounded-xl border border-line bg-canvas p-4">
                    <p id="popup-created-inactive" className="flex items-start gap-2 text-sm text-ink">
                      <Info className="mt-0.5 size-4 shrink-0 text-muted" aria-hidden />
                      {f.createdInactiveHint}
                    </p>
                    <label className="flex min-h-12 cursor-pointer items-center gap-3 text-base font-semibold text-ink">
                      <input
                        type="checkbox"
                        className="size-5 shrink-0 accent-brand"
                        aria-describedby="popup-created-inactive"
                        checked={field.value ?? false}
                        disabled={busy}
                        onChange={(e) => field.onChange(e.target.checked)}
                      />
                      {f.activateNow}
                    </label>
                  </div>
                )}
              />
            )}
          </Section>

          <div className="flex gap-3 pt-2 lg:col-start-1">
            <Button variant="secondary" className="flex-1" disabled={busy} onClick={() => onOpenChange(false)}>
              {f.cancel}
            </Button>
            <Button type="submit" className="flex-1" disabled={busy}>
              {busy ? f.saving : editing ? f.update : f.create}
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}
