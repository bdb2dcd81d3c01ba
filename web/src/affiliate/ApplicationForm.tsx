import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import { applyForProgramme, type ApplicationForm as Form } from './affiliateApi';
import { emptyApplication, validateApplication } from './applicationValidation';

export function ApplicationForm() {
  const [form, setForm] = useState<Form>(emptyApplication);
  const [invalid, setInvalid] = useState('');
  const messageId = useId();
  const apply = useMutation({ mutationFn: applyForProgramme, onSuccess: () => setForm(emptyApplication) });
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
      <div className="card application-card">
        <p className="muted">Tell us how you plan to promote Leadforge. Fields marked * are required.</p>
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
    </section>
  );
}
