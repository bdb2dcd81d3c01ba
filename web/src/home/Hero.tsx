import { Link } from 'react-router-dom';
import { Icon } from '../components/Icon';
import { LeadPreview } from './LeadPreview';

export function Hero() {
  return (
    <section className="hero">
      <div className="container hero-inner">
        <div className="hero-copy">
          <p className="eyebrow">B2B lead generation</p>
          <h1>
            Turn any industry and city into a <span className="text-accent">ready-to-call lead list</span>
          </h1>
          <p className="hero-lead">
            Leadforge scans maps listings and business websites for names, emails, phone numbers and websites, then
            hands you a clean list, the leads appearing as they are found.
          </p>
          <div className="hero-actions">
            <Link to="/register" className="btn btn-primary btn-lg">
              Get Started Free
              <Icon name="arrowRight" className="icon-sm" />
            </Link>
            <Link to="/login" className="btn btn-secondary btn-lg">
              Sign In
            </Link>
          </div>
          <ul className="hero-points">
            <li>
              <Icon name="check" className="icon-sm" />
              10 free credits on signup
            </li>
            <li>
              <Icon name="check" className="icon-sm" />
              No credit card required
            </li>
            <li>
              <Icon name="check" className="icon-sm" />
              7-day money-back guarantee
            </li>
          </ul>
        </div>
        <LeadPreview />
      </div>
    </section>
  );
}
