export function ComingSoon({ title, description }: { title: string; description: string }) {
  return (
    <section className="panel coming-soon" aria-labelledby="coming-soon-title">
      <h1 id="coming-soon-title">{title}</h1>
      <p className="coming-soon-badge">Coming soon</p>
      <p className="muted">{description}</p>
    </section>
  );
}
