import { Link } from 'react-router-dom';

export function Logo() {
  return (
    <Link to="/" className="logo" aria-label="Leadforge home">
      <svg className="logo-mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
        <rect width="32" height="32" rx="8" />
        <path d="M11 8v16h11" />
        <circle cx="22" cy="11" r="3" />
      </svg>
      <span className="logo-text">Leadforge</span>
    </Link>
  );
}
