import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { startTransition, useState, type FormEvent } from 'react';
import { useNavigate } from 'react-router-dom';
import { api, errorDetail } from '../api/client';
import { downloadMyData } from './dataExport';
import { deleteAccount, readSearchReadyEmails, searchReadyEmailsKey, setSearchReadyEmails } from './accountApi';
import { DeleteAccountDialog } from './DeleteAccountDialog';
import { validateNewPassword } from '../auth/formValidation';
import { useAuth } from '../auth/useAuth';
import { FormAlert } from '../components/FormAlert';
import { apiKeysQuery } from '../developers/apiKeysApi';
import { FormNotice } from '../components/FormNotice';
import { TextField } from '../components/TextField';
import './account.css';

function ProfileSection() {
  const { user, updateName } = useAuth();
  const [name, setName] = useState(user?.name ?? '');
  const [invalid, setInvalid] = useState('');
  const rename = useMutation({ mutationFn: updateName });
  const error = invalid || (rename.isError ? errorDetail(rename.error, 'Could not save your name; please try again.') : '');
  const saved = rename.isSuccess ? 'Your name has been saved.' : '';

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (name.trim() === '') {
      setInvalid('Please enter your name');
      rename.reset();
      return;
    }
    setInvalid('');
    rename.mutate(name.trim());
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-profile">
      <h2 id="settings-profile">Profile</h2>
      <p className="muted">Your name as it appears in Leadforge. Your email is {user?.email}.</p>
      <form onSubmit={handleSubmit} noValidate>
        <FormAlert message={error} />
        <FormNotice message={saved} />
        <TextField label="Name" name="name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={rename.isPending}>
          {rename.isPending ? 'Saving...' : 'Save Name'}
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
  const [invalid, setInvalid] = useState('');
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (chosen: { current: string; password: string; keepApiKeys: boolean }) => changePassword(chosen.current, chosen.password, chosen.keepApiKeys),
    onSuccess: ({ apiKeysRevoked }) => {
      setCurrent('');
      setPassword('');
      setConfirmPassword('');
      setKeepApiKeys(false);
      // The Developers page must not show revoked keys from before the change.
      if (apiKeysRevoked > 0) void queryClient.invalidateQueries({ queryKey: apiKeysQuery.queryKey });
    },
  });
  const error = invalid || (change.isError ? errorDetail(change.error, 'Could not change your password; please try again.') : '');
  const saved = change.isSuccess
    ? `Your password has been changed. Every other session has been signed out. ${apiKeysOutcome(change.data.apiKeysRevoked, change.variables.keepApiKeys)}`
    : '';

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const problem = current === '' ? 'Please fill in all fields' : validateNewPassword(password, confirmPassword);
    setInvalid(problem ?? '');
    if (problem) {
      change.reset();
      return;
    }
    change.mutate({ current, password, keepApiKeys });
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
        <button type="submit" className="btn btn-primary" disabled={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}

function EmailSection() {
  const queryClient = useQueryClient();
  const setting = useQuery({ queryKey: searchReadyEmailsKey, queryFn: readSearchReadyEmails });
  // The choice being saved, set in the click itself: the mutation's own state arrives a tick later,
  // and a controlled box would meanwhile spring back.
  const [choosing, setChoosing] = useState<boolean | undefined>();
  const save = useMutation({
    mutationFn: setSearchReadyEmails,
    onSuccess: (stored) => queryClient.setQueryData(searchReadyEmailsKey, stored),
    onSettled: () => setChoosing(undefined),
  });
  // The box shows the choice being saved at once; a refused save falls back to the stored value. Until
  // the stored choice is read, the box cannot be changed (it would show a guess).
  const on = choosing ?? setting.data ?? true;
  const error = save.isError
    ? errorDetail(save.error, 'Could not save your choice; please try again.')
    : setting.isError ? errorDetail(setting.error, 'Could not read your email choice; please reload the page.') : '';
  const saved = save.isSuccess ? (save.data ? 'We will email you when a long search is ready.' : 'We will not email you when a search is ready.') : '';

  return (
    <section className="card settings-section" aria-labelledby="settings-email">
      <h2 id="settings-email">Emails</h2>
      <p className="muted">Receipts, refunds and security notices are always sent.</p>
      <FormAlert message={error} />
      <FormNotice message={saved} />
      <label className="settings-confirm">
        <input type="checkbox" name="notifySearchReady" checked={on} disabled={!setting.isSuccess} onChange={(e) => { setChoosing(e.target.checked); save.mutate(e.target.checked); }} />
        <span>Email me when a search that takes more than a minute is ready</span>
      </label>
    </section>
  );
}

function DataExportSection() {
  const download = useMutation({ mutationFn: () => downloadMyData(api) });

  return (
    <section className="card settings-section" aria-labelledby="settings-data">
      <h2 id="settings-data">Your data</h2>
      <p className="muted">
        One JSON file with everything Leadforge holds about you: your account, purchases and credit history, every
        lead search with its leads, your affiliate records, and messages you sent us from your email address.
      </p>
      <FormAlert message={download.isError ? errorDetail(download.error, 'Could not collect your data; please try again.') : ''} />
      <button type="button" className="btn btn-secondary" onClick={() => download.mutate()} disabled={download.isPending}>
        {download.isPending ? 'Collecting...' : 'Download My Data'}
      </button>
    </section>
  );
}

function DeleteAccountSection() {
  const { user, logout } = useAuth();
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [understood, setUnderstood] = useState(false);
  const [invalid, setInvalid] = useState('');
  const [confirming, setConfirming] = useState(false);
  const removal = useMutation({
    mutationFn: deleteAccount,
    onSuccess: async (message) => {
      // Leave the guarded page before the session ends (as logging out does).
      await navigate('/login', { replace: true, state: { notice: message } });
      startTransition(logout);
    },
    onError: () => setConfirming(false),
  });
  const error = invalid || (removal.isError ? errorDetail(removal.error, 'Could not delete your account; please try again.') : '');

  const handleSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    removal.reset();
    if (password === '' || !understood) {
      setInvalid('Enter your password and tick the box to confirm');
      return;
    }
    setInvalid('');
    setConfirming(true);
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
        <button type="submit" className="btn btn-danger" disabled={removal.isPending}>
          Delete My Account
        </button>
      </form>
      {confirming && <DeleteAccountDialog email={user?.email ?? ''} deleting={removal.isPending} onConfirm={() => removal.mutate(password)} onCancel={() => setConfirming(false)} />}
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
