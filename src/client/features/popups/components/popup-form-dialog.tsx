import { zodResolver } from '@hookform/resolvers/zod';
import { type Control, Controller, useForm } from 'react-hook-form';
import {
  type AdminPopup,
  POPUP_RECURRENCES,
  POPUP_TARGETS,
  POPUP_THEMES,
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
import { ApiError, serverMessageOr } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { emptyPopupForm, fromLocalInputValue, parseIntegerInput, popupToForm, toLocalInputValue } from '../admin-popup-view';
import { useCreatePopup, useUpdatePopup } from '../api/admin-popups';

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

/** What Field hands its control: the label's target id and the error/hint wiring. */
interface FieldWiring {
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
}

interface ControlledProps<N extends keyof PopupFormInput> extends FieldWiring {
  control: Control<PopupFormInput, unknown, PopupForm>;
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

interface PopupFormDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The popup to edit; absent for the create dialog. */
  popup?: AdminPopup | undefined;
}

/**
 * Create New Popup / Edit Popup (spec sections 2, 4, 5). The shared schema validates here and
 * on the server; server field errors land under the same inputs.
 */
export function PopupFormDialog({ open, onOpenChange, popup }: PopupFormDialogProps) {
  const editing = popup !== undefined;
  const create = useCreatePopup();
  const update = useUpdatePopup();
  const form = useForm<PopupFormInput, unknown, PopupForm>({
    resolver: zodResolver(PopupFormSchema),
    defaultValues: popup ? popupToForm(popup) : emptyPopupForm(),
    reValidateMode: 'onSubmit',
  });
  const { errors, isSubmitting } = form.formState;
  const busy = isSubmitting;

  const onSubmit = form.handleSubmit(async (values) => {
    try {
      if (popup) {
        await update.mutateAsync({ id: popup.id, body: values });
        toast({ title: a.toastSuccess, description: a.updated, variant: 'success' });
        onOpenChange(false);
      } else {
        await create.mutateAsync(values);
        toast({ title: a.toastSuccess, description: a.created, variant: 'success' });
        form.reset(emptyPopupForm());
        onOpenChange(false);
      }
    } catch (err) {
      if (err instanceof ApiError) {
        for (const [name, message] of Object.entries(err.fields ?? {})) {
          if ((fieldNames as string[]).includes(name)) form.setError(name as keyof PopupFormInput, { message });
        }
      }
      const fallback = editing ? a.updateFailed : a.createFailed;
      toast({ title: a.toastError, description: serverMessageOr(err, fallback), variant: 'destructive' });
    }
  });

  const clear = (name: keyof PopupFormInput) => () => form.clearErrors(name);
  const text = (name: 'title' | 'timezone') => ({ ...form.register(name, { onChange: clear(name) }), disabled: busy });
  const integer = (name: 'interval' | 'maxSnoozes' | 'priority') => ({
    ...form.register(name, { setValueAs: parseIntegerInput, onChange: clear(name) }),
    type: 'number',
    inputMode: 'numeric' as const,
    step: 1,
    disabled: busy,
  });

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent title={editing ? a.editTitle : a.createTitle} description={editing ? a.editDescription : a.createDescription}>
        <form className="flex flex-col gap-4" onSubmit={onSubmit} noValidate>
          <Field label={f.title} error={errors.title?.message}>
            <Input autoComplete="off" maxLength={200} {...text('title')} />
          </Field>
          <Field label={f.message} error={errors.message?.message}>
            <Textarea rows={3} maxLength={1000} {...form.register('message', { onChange: clear('message') })} disabled={busy} />
          </Field>
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
            <Field label={f.interval} hint={f.intervalHint} error={errors.interval?.message}>
              <Input min={1} max={24} {...integer('interval')} />
            </Field>
          </div>
          <Field label={f.timezone} hint={f.timezoneHint} error={errors.timezone?.message}>
            <Input list="popup-time-zones" autoComplete="off" spellCheck={false} {...text('timezone')} />
          </Field>
          <datalist id="popup-time-zones">
            {zones.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
          <Field label={f.theme} error={errors.theme?.message}>
            <FormSelect control={form.control} name="theme" options={themeOptions} disabled={busy} onEdited={clear('theme')} />
          </Field>
          <div className="grid grid-cols-2 gap-4">
            <Field label={f.maxSnoozes} error={errors.maxSnoozes?.message}>
              <Input min={0} max={10} {...integer('maxSnoozes')} />
            </Field>
            <Field label={f.priority} error={errors.priority?.message}>
              <Input min={1} max={10} {...integer('priority')} />
            </Field>
          </div>
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
          <div className="flex gap-3 pt-2">
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
