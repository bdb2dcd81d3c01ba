import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import { affiliateKeys, applyForProgramme, type AffiliateStats, type ApplicationForm as Form } from './affiliateApi';
import { emptyApplication, validateApplication } from './applicationValidation';

/** What the applicant sees once they have applied, instead of the form. */
function ApplicationStatus({ application, message }: { application: NonNullable<AffiliateStats['application']>; message: string }) {
  return (
    <div className="card application-card" data-testid="application-status">
      {message && <div className="alert application-success" role="status">{message}</div>}
      <p><strong>Application received</strong> on {new Date(application.submitted_at).toLocaleDateString()}. We read every one and reply to <span className="affiliate-break">{application.email}</span>.</p>
      {application.website && <p className="muted affiliate-break">Website: {application.website}</p>}
      <p className="muted">Your referral link already works meanwhile: nothing waits on this application.</p>
    </div>
  );
}

export function ApplicationForm({ application }: { application: AffiliateStats['application'] | undefined }) {
  const queryClient = useQueryClient();
  const [form, setForm] = useState<Form>(emptyApplication);
  const [invalid, setInvalid] = useState('');
  const messageId = useId();
  const apply = useMutation({
    mutationFn: applyForProgramme,
    onSuccess: () => {
      setForm(emptyApplication);
      // The stats carry the application: once they are read again, its status replaces the form.
      return queryClient.invalidateQueries({ queryKey: affiliateKeys.stats });
    },
  });
  const error = invalid || (apply.isError ? errorDetail(apply.error, 'Application failed. Please try again.') : '');
  const success = apply.data ?? '';

  const update = (field: keyof Form) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateApplication(form);
    setInvalid(problem ?? '');
    if (problem) {
      apply.reset();
      return;
    }
    apply.mutate(form);
  };

  return (
    <section className="affiliate-section" aria-labelledby="apply-title">
      <h2 id="apply-title">Apply to the program</h2>
      {application ? <ApplicationStatus application={application} message={success} /> : (
      <div className="card application-card">
        <p className="muted">
          Applying is optional: your referral link above earns 10% from the first sale, with or without an application.
          Apply to tell us how you promote Leadforge (for co-marketing or larger partnerships). Fields marked * are required.
        </p>
        <form onSubmit={submit} noValidate>
          <FormAlert message={error} />
          {success && (
            <div className="alert application-success" role="status">
              {success}
            </div>
          )}
          <div className="form-grid">
            <TextField label="Name *" name="name" autoComplete="name" value={form.name} onChange={update('name')} />
            <TextField label="Email *" name="email" type="email" autoComplete="email" value={form.email} onChange={update('email')} />
          </div>
          <TextField label="Website" name="website" type="url" placeholder="https://your-site.com" value={form.website} onChange={update('website')} />
          <div className="field">
            <label htmlFor={messageId}>Message</label>
            <textarea id={messageId} name="message" rows={4} placeholder="Your audience, channels, expected referrals..." value={form.message} onChange={update('message')} />
          </div>
          <button type="submit" className="btn btn-primary" disabled={apply.isPending}>
            {apply.isPending ? 'Submitting...' : 'Submit Application'}
          </button>
        </form>
      </div>
      )}
    </section>
  );
}
