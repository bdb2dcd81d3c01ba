import { Link } from 'react-router-dom';

export function FinalCta() {
  return (
    <section className="final-cta" aria-labelledby="final-cta-title">
      <div className="container container-narrow">
        <h2 id="final-cta-title">Your next customers are already on the map</h2>
        <p>Create a free account and get 10 credits to try Leadforge today.</p>
        <div className="hero-actions hero-actions-center">
          <Link to="/register" className="btn btn-primary btn-lg">
            Get Started Free
          </Link>
          <Link to="/contact" className="btn btn-secondary btn-lg">
            Talk to us
          </Link>
        </div>
      </div>
    </section>
  );
}
