const STEPS = [
  {
    title: 'Choose your target',
    text: 'Enter an industry, a location and how many leads you need, from 1 up to 200 per search.',
  },
  {
    title: 'Generate leads',
    text: 'Leadforge scans maps listings and business websites and verifies the contacts it finds.',
  },
  {
    title: 'Export and reach out',
    text: 'Review the results in your dashboard and export them to CSV in one click.',
  },
];

export function HowItWorks() {
  return (
    <section className="section section-tinted" aria-labelledby="how-title">
      <div className="container">
        <header className="section-header">
          <p className="eyebrow">How it works</p>
          <h2 id="how-title">From idea to lead list in three steps</h2>
        </header>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </div>
    </section>
  );
}
