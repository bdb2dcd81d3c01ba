import { useState, type FormEvent } from 'react';
import { errorDetail } from '../api/client';
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

function PasswordSection() {
  const { changePassword } = useAuth();
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
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
      await changePassword(current, password);
      setCurrent('');
      setPassword('');
      setConfirmPassword('');
      setSaved('Your password has been changed. Every other session has been signed out.');
    } catch (err) {
      setError(errorDetail(err, 'Could not change your password; please try again.'));
    } finally {
      setPending(false);
    }
  };

  return (
    <section className="card settings-section" aria-labelledby="settings-password">
      <h2 id="settings-password">Password</h2>
      <p className="muted">Changing it signs out every other browser and device, and we email you to confirm.</p>
      <form onSubmit={handleSubmit} noValidate>
        <FormAlert message={error} />
        <FormNotice message={saved} />
        <TextField label="Current password" type="password" name="currentPassword" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} />
        <TextField label="New password" type="password" name="newPassword" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} hint="At least 6 characters." />
        <TextField label="Confirm new password" type="password" name="confirmPassword" autoComplete="new-password" value={confirmPassword} onChange={(e) => setConfirmPassword(e.target.value)} />
        <button type="submit" className="btn btn-primary" disabled={pending}>
          {pending ? 'Changing...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}

export function SettingsPage() {
  return (
    <div className="container page settings-page">
      <h1>Account settings</h1>
      <p className="muted">Your profile and your password.</p>
      <ProfileSection />
      <PasswordSection />
    </div>
  );
}
