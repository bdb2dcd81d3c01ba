import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { STALE_TIME } from '../api/queryClient';
import { ContactDetails } from './ContactDetails';
import { ContactForm } from './ContactForm';
import { fetchRobotCheckConfig, robotCheckConfigKey } from './contactApi';
import { MessageSent } from './MessageSent';
import { QuickHelp } from './QuickHelp';
import './contact.css';

export function ContactPage() {
  const robotCheck = useQuery({ queryKey: robotCheckConfigKey, queryFn: fetchRobotCheckConfig, staleTime: STALE_TIME.settings });
  const [sent, setSent] = useState(false);

  return (
    <div className="contact-page">
      <header className="page-hero contact-hero">
        <div className="container">
          <h1>Contact Us</h1>
          <p className="hero-lead">Questions about leads, credits or your account? Send us a message and we will get back to you.</p>
        </div>
      </header>
      <div className="container contact-layout">
        <section className="card contact-form-card" aria-labelledby="contact-form-title">
          {sent ? (
            <MessageSent onSendAnother={() => setSent(false)} />
          ) : (
            <>
              <h2 id="contact-form-title">Send us a message</h2>
              <ContactForm robotCheck={robotCheck.data ?? null} robotCheckFailed={robotCheck.isError} onSent={() => setSent(true)} />
            </>
          )}
        </section>
        <aside className="contact-aside">
          <ContactDetails />
          <QuickHelp />
        </aside>
      </div>
    </div>
  );
}
