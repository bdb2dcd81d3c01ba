import { startTransition, useEffect, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, errorDetail } from '../api/client';
import { downloadMyData } from '../account/dataExport';
import { deleteAccount, readSearchReadyEmails, setSearchReadyEmails } from '../account/accountApi';
import { DeleteAccountDialog } from '../account/DeleteAccountDialog';
import { validateNewPassword } from '../auth/formValidation';
import { useAuth } from '../auth/useAuth';
import { FormAlert } from '../components/FormAlert';
import { FormNotice } from '../components/FormNotice';
import { TextField } from '../components/TextField';
import '../account/account.css';

function ProfileSection() {
  const { user, updateName } = useAuth();
  const [name, setName] = useState(user?.name ?? '');
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [pending, setPending] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved('');
    if (name.trim() === '') {
      setError('Please enter your name');
      return;
    }
    setError('');
    setPending(true);
    try {
      await updateName(name.trim());
      setSaved('Your name has been saved.');
    } catch (err) {
      setError(errorDetail(err, 'Could not save your name; please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-profile">
      <h2 id="settings-profile">Profile</h2>
      <p className="muted">Your name as it appears in Leadforge. Your email is {user?.email}.</p>
      <form onSubmit={handleSubmit} noValidate>
        <FormAlert message={error} />
        <FormNotice message={saved} />
        <TextField label="Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Saving...' : 'Save Name'}
        </button>
      </form>
    </section>
  );
}

/** What the change did to the user's API keys, as the settings page says it. */
function apiKeysOutcome(revoked: number, kept: boolean): string {
  if (revoked > 0) return `${revoked} API key${revoked === 1 ? ' was' : 's were'} revoked.`;
  return kept ? 'Your API keys were kept.' : 'You had no API keys to revoke.';
}

function PasswordSection() {
  const { changePassword } = useAuth();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [keepApiKeys, setKeepApiKeys] = useState(false);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');
  const [pending, setPending] = useState(false);

  const handleSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaved('');
    const invalid = current === '' ? 'Please fill in all fields' : validateNewPassword(password, confirmPassword);
    if (invalid) {
      setError(invalid);
      return;
    }
    setError('');
    setPending(true);
    try {
      const { apiKeysRevoked } = await changePassword(current, password, keepApiKeys);
      setCurrent('');
      setPassword('');
      setConfirmPassword('');
      setKeepApiKeys(false);
      setSaved(`Your password has been changed. Every other session has been signed out. ${apiKeysOutcome(apiKeysRevoked, keepApiKeys)}`);
    } catch (err) {
      setError(errorDetail(err, 'Could not change your password; please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-password">
      <h2 id="settings-password">Password</h2>
      <p className="muted">Changing it signs out every other browser and device, revokes your API keys unless you keep them, and we email you to confirm.</p>
      <form onSubmit={handleSubmit} noValidate>
        <FormAlert message={error} />
        <FormNotice message={saved} />
        <TextField label="Current password" type="password" name="currentPassword" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" name="newPassword" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 6 characters." />
        <TextField label="Confirm new password" type="password" name="confirmPassword" autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
        <label className="settings-confirm">
          <input type="checkbox" name="keepApiKeys" checked={keepApiKeys} onChange={(e) => setKeepApiKeys(e.target.checked)} />
          <span>Keep my API keys (leave unticked if someone else may have used your account)</span>
        </label>
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Changing...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}

function EmailSection() {
  const [on, setOn] = useState<boolean | null>(null);
  const [error, setError] = useState('');
  const [saved, setSaved] = useState('');

  useEffect(() => {
    let current = true;
    readSearchReadyEmails().then((value) => { if (current) setOn(value); }, () => { if (current) setOn(true); });
    return () => { current = false; };
  }, []);

  const handleChange = async (next: boolean) => {
    setError('');
    setSaved('');
    setOn(next);
    try {
      setOn(await setSearchReadyEmails(next));
      setSaved(next ? 'We will email you when a long search is ready.' : 'We will not email you when a search is ready.');
    } catch (err) {
      setOn(!next);
      setError(errorDetail(err, 'Could not save your choice; please try again.'));
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-email">
      <h2 id="settings-email">Emails</h2>
      <p className="muted">Receipts, refunds and security notices are always sent.</p>
      <FormAlert message={error} />
      <FormNotice message={saved} />
      <label className="settings-confirm">
        <input type="checkbox" name="notifySearchReady" checked={on ?? true} disabled={on === null} onChange={(e) => handleChange(e.target.checked)} />
        <span>Email me when a search that takes more than a minute is ready</span>
      </label>
    </section>
  );
}

function DataExportSection() {
  const [error, setError] = useState('');
  const [pending, setPending] = useState(false);

  const handleExport = async () => {
    setError('');
    setPending(true);
    try {
      await downloadMyData(api);
    } catch (err) {
      setError(errorDetail(err, 'Could not collect your data; please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-data">
      <h2 id="settings-data">Your data</h2>
      <p className="muted">
        One JSON file with everything Leadforge holds about you: your account, purchases and credit history, every
        lead search with its leads, your affiliate records, and messages you sent us from your email address.
      </p>
      <FormAlert message={error} />
      <button type="button" className="btn btn-secondary" onClick={handleExport} disabled={pending}>
        {pending ? 'Collecting...' : 'Download My Data'}
      </button>
    </section>
  );
}

function DeleteAccountSection() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [error, setError] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [pending, setPending] = useState(false);

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password === '' || !understood) {
      setError('Enter your password and tick the box to confirm');
      return;
    }
    setError('');
    setConfirming(true);
  };

  const handleConfirm = async () => {
    setPending(true);
    try {
      const message = await deleteAccount(password);
      // Leave the guarded page before the session ends (as logging out does).
      await navigate('/login', { replace: true, state: { notice: message } });
      startTransition(logout);
    } catch (err) {
      setError(errorDetail(err, 'Could not delete your account; please try again.'));
      setConfirming(false);
      setPending(false);
    }
  };

  return (
    <section className="card settings-section settings-danger" aria-labelledby="settings-delete">
      <h2 id="settings-delete">Delete account</h2>
      <p className="muted">
        You are signed out everywhere at once, then your name, email, searches with their leads, messages and
        affiliate details are erased from every part of Leadforge (purchase records keep only amounts and ids).
        Remaining credits are lost and cannot be refunded; the same email may sign up again, without free credits.
      </p>
      <form onSubmit={handleSubmit} noValidate>
        <FormAlert message={error} />
        <TextField label="Your password" type="password" name="deletePassword" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        <label className="settings-confirm">
          <input type="checkbox" checked={understood} onChange={(e) => setUnderstood(e.target.checked)} />
          <span>I understand that this cannot be undone.</span>
        </label>
        <button type="submit" className="btn btn-danger" disabled={pending}>
          Delete My Account
        </button>
      </form>
      {confirming && <DeleteAccountDialog email={user?.email ?? ''} deleting={pending} onConfirm={handleConfirm} onCancel={() => setConfirming(false)} />}
    </section>
  );
}

export function SettingsPage() {
  return (
    <div className="container page settings-page">
      <h1>Account settings</h1>
      <p className="muted">Your profile, your password, your emails, your data, and your account.</p>
      <ProfileSection />
      <PasswordSection />
      <EmailSection />
      <DataExportSection />
      <DeleteAccountSection />
    </div>
  );
}
