import { Icon } from '../components/Icon';
import { SUPPORT_EMAIL } from '../layout/SiteFooter';

export function ContactDetails() {
  return (
    <section className="card contact-card" aria-labelledby="contact-details-title">
      <h2 id="contact-details-title">Get in touch</h2>
      <ul className="contact-details">
        <li>
          <Icon name="mail" />
          <div>
            <strong>Email support</strong>
            <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
          </div>
        </li>
        <li>
          <Icon name="zap" />
          <div>
            <strong>Response time</strong>
            <span>Within 1 business day</span>
          </div>
        </li>
        <li>
          <Icon name="shield" />
          <div>
            <strong>Support</strong>
            <span>Technical and billing support</span>
          </div>
        </li>
      </ul>
    </section>
  );
}
