import { zodResolver } from '@hookform/resolvers/zod';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { paths } from '#shared/paths';
import { type CreateEmployerRequest, CreateEmployerRequestSchema } from '#shared/schemas/enrolment';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog, DialogContent, DialogTrigger } from '../../../components/ui/dialog';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { FormField } from '../../../components/form-field';
import { t } from '../../../lib/i18n';
import { SubmissionKey } from '../../../lib/submission-key';
import { applyServerError } from '../../../lib/hook-form-errors';
import { useCreateEmployer } from '../api/create-employer';

const a = t.enrolment.addEmployer;

/** "Add employer" on the employers page: creates one (to import its roster) and opens it. */
export function AddEmployerDialog() {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const create = useCreateEmployer();
  const [submission] = useState(() => new SubmissionKey());
  const form = useForm<CreateEmployerRequest>({ resolver: zodResolver(CreateEmployerRequestSchema), defaultValues: { name: '' } });

  const onValid = async (values: CreateEmployerRequest) => {
    setGeneralError(null);
    try {
      const { employer } = await create.mutateAsync({ input: values, idempotencyKey: submission.keyFor(values) });
      submission.settle();
      toast({ title: a.created(employer.name), variant: 'success' });
      setOpen(false);
      void navigate(paths.adminEmployer(employer.id));
    } catch (err) {
      submission.settle(err);
      setGeneralError(applyServerError(form, err, ['name'], t.enrolment.importDialog.failed).message);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) {
          form.reset();
          setGeneralError(null);
        }
      }}
    >
      <DialogTrigger asChild>
        <Button variant="secondary">
          <Plus aria-hidden />
          {a.open}
        </Button>
      </DialogTrigger>
      <DialogContent title={a.title} description={a.description}>
        <form className="flex flex-col gap-4" onSubmit={(event) => void form.handleSubmit(onValid)(event)} noValidate>
          {generalError && <Alert>{generalError}</Alert>}
          <FormField form={form} name="name" label={a.name}>
            <Input autoComplete="off" />
          </FormField>
          <Button type="submit" disabled={form.formState.isSubmitting}>
            {form.formState.isSubmitting ? a.submitting : a.submit}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}
