import { useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
import { FormAlert } from '../components/FormAlert';
import { TextField } from '../components/TextField';
import { sendContactMessage, type ContactForm as Form, type RobotCheckConfig } from './contactApi';
import { CONTACT_MESSAGES, emptyContactForm, validateContactForm } from './contactValidation';
import { RobotCheck, type RobotCheckHandle } from './RobotCheck';

interface ContactFormProps {
  robotCheck: RobotCheckConfig | null;
  robotCheckFailed: boolean;
  onSent(): void;
}

/** editing -> sending -> sent; the robot check is reset after every attempt. */
export function ContactForm({ robotCheck, robotCheckFailed, onSent }: ContactFormProps) {
  const [form, setForm] = useState<Form>(emptyContactForm);
  const [error, setError] = useState('');
  const [sending, setSending] = useState(false);
  const check = useRef<RobotCheckHandle>(null);
  const messageId = useId();

  const update = (field: keyof Form) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const invalid = validateContactForm(form);
    if (invalid) return setError(invalid);
    const widget = check.current;
    if (!widget?.isLoaded()) return setError(CONTACT_MESSAGES.checkNotLoaded);
    let token: string;
    try {
      token = widget.getResponse();
    } catch {
      return setError(CONTACT_MESSAGES.checkFailed);
    }
    if (!token) return setError(CONTACT_MESSAGES.checkMissing);

    setError('');
    setSending(true);
    try {
      await sendContactMessage(form, token);
      setForm(emptyContactForm);
      widget.reset();
      onSent();
    } catch (err) {
      setError(errorDetail(err, CONTACT_MESSAGES.sendFailed));
      widget.reset();
    } finally {
      setSending(false);
    }
  };

  return (
    <form className="contact-form" onSubmit={submit} noValidate>
      <FormAlert message={error} />
      <TextField label="Name" name="name" autoComplete="name" value={form.name} onChange={update('name')} />
      <TextField label="Email" name="email" type="email" autoComplete="email" value={form.email} onChange={update('email')} />
      <div className="field">
        <label htmlFor={messageId}>Message</label>
        <textarea id={messageId} name="message" rows={6} maxLength={10000} placeholder="How can we help?" value={form.message} onChange={update('message')} />
      </div>
      <RobotCheck ref={check} config={robotCheck} configFailed={robotCheckFailed} onUnavailable={() => setError(CONTACT_MESSAGES.checkNotLoaded)} />
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={sending}>
        {sending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
