import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import {
  CARD_FIELD_LIMITS,
  CARD_FIELD_NAMES,
  type CardFieldName,
  type EmployerCardDetails,
  type EmployerCardDetailsInput,
  EmployerCardDetailsSchema,
  type EmployerCardResponse,
} from '#shared/schemas/cards';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input } from '../../../components/ui/input';
import { Skeleton } from '../../../components/ui/skeleton';
import { Textarea } from '../../../components/ui/textarea';
import { toast } from '../../../components/ui/use-toast';
import { FormField } from '../../../components/form-field';
import { serverMessageOr } from '../../../lib/api-client';
import { t } from '../../../lib/i18n';
import { applyServerError } from '../../../lib/hook-form-errors';
import { useEmployerCard } from '../api/get-employer-card';
import { useSaveEmployerCard } from '../api/save-employer-card';
import { format } from '../../../lib/language';

const c = t.cards.admin;
const labels = t.cards.fields;
const PHONES: readonly CardFieldName[] = ['memberServicesPhone', 'nurseLinePhone'];

/** The form's values: every field a string ('' for an empty one). */
type FormValues = Record<CardFieldName, string>;

const toForm = (details: EmployerCardResponse['details']): FormValues =>
  Object.fromEntries(CARD_FIELD_NAMES.map((name) => [name, details[name] ?? ''])) as FormValues;

function CardDetailsForm({ companyId, card }: { companyId: string; card: EmployerCardResponse }) {
  const save = useSaveEmployerCard(companyId);
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<EmployerCardDetailsInput, unknown, EmployerCardDetails>({
    resolver: zodResolver(EmployerCardDetailsSchema),
    defaultValues: toForm(card.details),
  });
  const { isSubmitting } = form.formState;

  const onValid = async (details: EmployerCardDetails) => {
    setFormError(null);
    try {
      const saved = await save.mutateAsync(details);
      // What the server stored (trimmed, empty as null) becomes the form's new starting point.
      form.reset(toForm(saved.details));
      toast({ title: c.saved, variant: 'success' });
    } catch (err) {
      setFormError(applyServerError(form, err, CARD_FIELD_NAMES, c.saveFailed).message);
    }
  };

  const field = (name: CardFieldName) => {
    const hint = name === 'rxBin' ? c.hints.rxBin : name === 'backNote' ? c.hints.backNote : undefined;
    return (
      <FormField key={name} form={form} name={name} label={labels[name]} hint={hint}>
        {name === 'backNote' ? (
          <Textarea rows={3} maxLength={CARD_FIELD_LIMITS.backNote} />
        ) : (
          <Input
            autoComplete="off"
            maxLength={CARD_FIELD_LIMITS[name]}
            {...(PHONES.includes(name) ? { type: 'tel', inputMode: 'tel' as const } : {})}
            {...(name === 'rxBin' ? { inputMode: 'numeric' as const } : {})}
          />
        )}
      </FormField>
    );
  };

  return (
    <form className="flex flex-col gap-4" onSubmit={(event) => void form.handleSubmit(onValid)(event)} noValidate aria-labelledby="card-details-title">
      {formError && <Alert>{formError}</Alert>}
      {CARD_FIELD_NAMES.map(field)}
      <Button type="submit" disabled={isSubmitting}>
        {isSubmitting ? c.saving : c.save}
      </Button>
    </form>
  );
}

/** The "Card details" section of an employer's admin page: what every member's ID card prints. */
export function EmployerCardDetailsSection({ companyId }: { companyId: string }) {
  const card = useEmployerCard(companyId);

  let body;
  if (card.isError) {
    body = <Alert>{c.loadError(serverMessageOr(card.error, ''))}</Alert>;
  } else if (card.isPending || !card.data) {
    body = <Skeleton className="h-64" />;
  } else {
    body = (
      <>
        <p className="text-sm text-muted" data-testid="card-details-updated">
          {card.data.updatedAt ? c.lastUpdated(format.dateTime(card.data.updatedAt)) : c.neverUpdated}
        </p>
        {/* Keyed by the employer: another employer's page starts from its own details. */}
        <CardDetailsForm key={companyId} companyId={companyId} card={card.data} />
      </>
    );
  }

  return (
    <Card className="flex flex-col gap-3" aria-labelledby="card-details-title">
      <h2 id="card-details-title" className="text-lg font-bold">
        {c.title}
      </h2>
      <p className="text-sm text-muted">{c.description}</p>
      {body}
    </Card>
  );
}
