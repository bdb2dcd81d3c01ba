export function WebhooksSection() {
  return (
    <section aria-labelledby="webhooks-heading">
      <h2 id="webhooks-heading">Webhooks</h2>
    </section>
  );
}
