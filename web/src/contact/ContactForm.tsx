import { useMutation } from '@tanstack/react-query';
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
  const [invalid, setInvalid] = useState('');
  const check = useRef<RobotCheckHandle>(null);
  const messageId = useId();
  const send = useMutation({
    mutationFn: ({ message, token }: { message: Form; token: string }) => sendContactMessage(message, token),
    onSuccess: () => {
      setForm(emptyContactForm);
      onSent();
    },
    // A token is good for one attempt, sent or refused.
    onSettled: () => check.current?.reset(),
  });
  const error = invalid || (send.isError ? errorDetail(send.error, CONTACT_MESSAGES.sendFailed) : '');

  const update = (field: keyof Form) => (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setForm((current) => ({ ...current, [field]: event.target.value }));

  /** A problem found before sending replaces the last attempt's error. */
  const refuse = (problem: string) => {
    send.reset();
    setInvalid(problem);
  };

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = validateContactForm(form);
    if (problem) return refuse(problem);
    const widget = check.current;
    if (!widget?.isLoaded()) return refuse(CONTACT_MESSAGES.checkNotLoaded);
    let token: string;
    try {
      token = widget.getResponse();
    } catch {
      return refuse(CONTACT_MESSAGES.checkFailed);
    }
    if (!token) return refuse(CONTACT_MESSAGES.checkMissing);
    setInvalid('');
    send.mutate({ message: form, token });
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
      <RobotCheck ref={check} config={robotCheck} configFailed={robotCheckFailed} onUnavailable={() => refuse(CONTACT_MESSAGES.checkNotLoaded)} />
      <button type="submit" className="btn btn-primary btn-block btn-lg" disabled={send.isPending}>
        {send.isPending ? 'Sending...' : 'Send Message'}
      </button>
    </form>
  );
}
