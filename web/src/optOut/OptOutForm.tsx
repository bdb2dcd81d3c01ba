import { useMutation } from '@tanstack/react-query';
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import { requestOptOut } from './optOutApi';

const EMPTY = { email: '', phone: '', website: '', reason: '' };
type Form = typeof EMPTY;

/** The public form: any of email, phone or website, and an optional reason. */
export function OptOutForm({ onDone }: { onDone(message: string): void }) {
  const [form, setForm] = useState<Form>(EMPTY);
  const [invalid, setInvalid] = useState('');
  const reasonId = useId();
  const send = useMutation({
    mutationFn: requestOptOut,
    onSuccess: ({ message }) => {
      setForm(EMPTY);
      onDone(message);
    },
  });
  const error = invalid || (send.isError ? errorDetail(send.error, 'Your request could not be sent. Please try again.') : '');

  const update = (field: keyof Form) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!form.email.trim() && !form.phone.trim() && !form.website.trim()) {
      setInvalid('Please give an email address, a phone number or a website');
      send.reset();
      return;
    }
    setInvalid('');
    send.mutate(form);
  };

  return (
    <form className="opt-out-form" onSubmit={submit} noValidate>
      <FormAlert message={error} />
      <TextField label="Email address" name="email" type="email" autoComplete="email" maxLength={254} placeholder="name@yourcompany.com" value={form.email} onChange={update('email')} />
      <TextField label="Phone number" name="phone" type="tel" autoComplete="tel" maxLength={40} placeholder="+49 30 1234567" hint="In international format, starting with + and the country code." value={form.phone} onChange={update('phone')} />
      <TextField label="Website" name="website" maxLength={2048} placeholder="yourcompany.com" hint="The whole website or domain; an administrator checks this kind of request first." value={form.website} onChange={update('website')} />
      <div className="field">
        <label htmlFor={reasonId}>Reason (optional)</label>
        <textarea id={reasonId} name="reason" rows={3} maxLength={2000} value={form.reason} onChange={update('reason')} />
      </div>
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Remove my details'}
      </button>
    </form>
  );
}
