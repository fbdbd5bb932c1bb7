import { zodResolver } from '@hookform/resolvers/zod';
import { ArrowLeft } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useMemo, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { paths } from '#shared/paths';
import {
  EARLIEST_DOB,
  type FamilyMember,
  type FamilyMemberInput,
  type FamilyMemberValues,
  familyMemberInputSchemaAt,
  relationships,
} from '#shared/schemas/family';
import { localIsoDate } from '#shared/dates';
import { OfflineNote } from '../../../components/offline-note';
import { PageIntro } from '../../../components/page-intro';
import { PageLayout } from '../../../components/page-layout';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { FormField } from '../../../components/form-field';
import { clearDraft, readDraft, writeDraft } from '../../../lib/form-draft';
import { t } from '../../../lib/i18n';
import { SubmissionKey } from '../../../lib/submission-key';
import { applyServerError, useFocusAfterSubmit } from '../../../lib/hook-form-errors';
import { useAuth } from '../../auth/auth-context';
import { useAddFamilyMember } from '../api/add-family-member';
import { useFamilyMembers } from '../api/get-family-members';
import { useUpdateFamilyMember } from '../api/update-family-member';

const m = t.members.familyForm;
const fieldNames = ['firstName', 'lastName', 'dob', 'relationship'] as const;
const relationshipOptions = relationships.map((r) => ({ value: r, label: m.relationships[r] }));
const empty: FamilyMemberInput = { firstName: '', lastName: '', dob: '', relationship: '' };

interface FamilyFormProps {
  mode: 'add' | 'edit';
  initial: FamilyMemberInput;
  /** `idempotencyKey` is the same for every retry of one submission (the add form sends it). */
  save: (values: FamilyMemberValues, idempotencyKey: string) => Promise<unknown>;
  /** Where the half-typed values are kept (lib/form-draft.ts): restored after an idle sign-out. */
  draftName: string;
  /** When the prefilled values were fetched (edit): offline, the form says how old they are. */
  loadedAt?: number;
}


/** The add/edit form (spec: Add family member): errors under each field, 'Saving...' while busy. */
function FamilyForm({ mode, initial, save, draftName, loadedAt }: FamilyFormProps) {
  const navigate = useNavigate();
  const userId = useAuth().user?.id;
  const [generalError, setGeneralError] = useState<string | null>(null);
  const formId = useId();
  const today = useMemo(() => localIsoDate(new Date()), []);
  const schema = useMemo(() => familyMemberInputSchemaAt(today), [today]);
  const [{ defaultValues, restored }] = useState(() => {
    const draft = userId ? readDraft<FamilyMemberInput>(userId, draftName, fieldNames) : undefined;
    const values: FamilyMemberInput = { ...initial, ...draft };
    return { defaultValues: values, restored: fieldNames.some((name) => values[name] !== initial[name]) };
  });
  const form = useForm<FamilyMemberInput, unknown, FamilyMemberValues>({
    resolver: zodResolver(schema),
    defaultValues,
    reValidateMode: 'onSubmit',
  });
  const { errors, isSubmitting } = form.formState;
  const focusLater = useFocusAfterSubmit(form, isSubmitting);
  const [submission] = useState(() => new SubmissionKey());

  // Every change is kept as a draft of this member's, until saved or cancelled.
  useEffect(() => {
    if (!userId) return undefined;
    return form.subscribe({
      formState: { values: true },
      callback: ({ values }) => writeDraft(userId, draftName, Object.fromEntries(fieldNames.map((name) => [name, values[name] ?? '']))),
    });
  }, [form, userId, draftName]);
  const dropDraft = () => {
    if (userId) clearDraft(userId, draftName);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => form.handleSubmit(async (values) => {
    setGeneralError(null);
    try {
      await save(values, submission.keyFor(values));
      submission.settle();
      dropDraft();
      toast({ title: mode === 'add' ? m.added : m.updated, variant: 'success' });
      await navigate(paths.profile);
    } catch (err) {
      submission.settle(err);
      // Offline, nothing left the device and the values stay as typed; the limit of 20 or a
      // member removed meanwhile says more than "try again": each is the server's sentence.
      setGeneralError(applyServerError(form, err, fieldNames, mode === 'add' ? m.failed : m.updateFailed, focusLater).message);
    }
  })(event);

  const actions = (
    <>
      {isSubmitting ? (
        <Button variant="secondary" className="flex-1" disabled>
          {m.cancel}
        </Button>
      ) : (
        <Button variant="secondary" className="flex-1" asChild>
          <Link to={paths.profile} onClick={dropDraft}>
            {m.cancel}
          </Link>
        </Button>
      )}
      <Button type="submit" form={formId} className="flex-1" disabled={isSubmitting}>
        {isSubmitting ? m.saving : m.save}
      </Button>
    </>
  );

  return (
    <FormPage mode={mode} actions={actions} notice={mode === 'edit' && <OfflineNote updatedAt={loadedAt} />}>
      <form id={formId} className="flex flex-col gap-4" onSubmit={onSubmit} noValidate aria-label={mode === 'add' ? m.addTitle : m.editTitle}>
        {generalError && <Alert>{generalError}</Alert>}
        {restored && !generalError && <Alert variant="info">{t.common.idle.draftRestored}</Alert>}
        <FormField form={form} name="firstName" label={m.firstName} disabled={isSubmitting}>
          <Input autoComplete="off" maxLength={50} />
        </FormField>
        <FormField form={form} name="lastName" label={m.lastName} disabled={isSubmitting}>
          <Input autoComplete="off" maxLength={50} />
        </FormField>
        <FormField form={form} name="dob" label={m.dob} disabled={isSubmitting}>
          <Input type="date" min={EARLIEST_DOB} max={today} />
        </FormField>
        <Controller
          control={form.control}
          name="relationship"
          render={({ field }) => (
            <Field label={m.relationship} error={errors.relationship?.message}>
              <Select
                name={field.name}
                value={field.value || undefined}
                onValueChange={(value) => {
                  field.onChange(value);
                  form.clearErrors('relationship');
                }}
                options={relationshipOptions}
                placeholder={m.relationshipPlaceholder}
                disabled={isSubmitting}
              />
            </Field>
          )}
        />
      </form>
    </FormPage>
  );
}

function FormPage({ mode, actions, notice, children }: { mode: 'add' | 'edit'; actions?: ReactNode; notice?: ReactNode; children: ReactNode }) {
  return (
    <PageLayout title={mode === 'add' ? m.addTitle : m.editTitle} actions={actions}>
      <Button variant="ghost" size="sm" className="self-start" asChild>
        <Link to={paths.profile}>
          <ArrowLeft aria-hidden />
          {t.common.goBack}
        </Link>
      </Button>
      <PageIntro title={mode === 'add' ? m.addTitle : m.editTitle}>{mode === 'add' ? m.addIntro : m.editIntro}</PageIntro>
      {notice}
      <Card>{children}</Card>
    </PageLayout>
  );
}

/** /profile/add-family */
export function AddFamilyPage() {
  const add = useAddFamilyMember();
  return (
    <FamilyForm mode="add" initial={empty} draftName="family-add" save={(values, idempotencyKey) => add.mutateAsync({ values, idempotencyKey })} />
  );
}

const toInput = (f: FamilyMember): FamilyMemberInput => ({
  firstName: f.firstName,
  lastName: f.lastName,
  dob: f.dob,
  relationship: f.relationship,
});

/** /profile/family/:id/edit: the same form, prefilled. */
export function EditFamilyPage() {
  const { id = '' } = useParams();
  const family = useFamilyMembers();
  const update = useUpdateFamilyMember(id);
  const member = family.data?.find((f) => f.id === id);
  if (member) {
    return (
      <FamilyForm
        key={member.id}
        mode="edit"
        initial={toInput(member)}
        draftName={`family-edit.${member.id}`}
        loadedAt={family.dataUpdatedAt}
        save={(values) => update.mutateAsync(values)}
      />
    );
  }
  return (
    <FormPage mode="edit" notice={<OfflineNote updatedAt={undefined} />}>
      {family.isLoading && (
        <div className="flex flex-col gap-4" role="status" aria-label={t.common.loading}>
          {fieldNames.map((name) => (
            <Skeleton key={name} className="h-[4.75rem] w-full" />
          ))}
        </div>
      )}
      {family.isError && <Alert>{t.members.profile.familyLoadFailed}</Alert>}
      {family.isSuccess && (
        <div className="flex flex-col gap-4">
          <Alert>{m.notFound}</Alert>
          <Button variant="secondary" asChild>
            <Link to={paths.profile}>{t.common.goBack}</Link>
          </Button>
        </div>
      )}
    </FormPage>
  );
}
