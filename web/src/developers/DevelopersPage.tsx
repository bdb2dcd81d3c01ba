import { useQuery } from '@tanstack/react-query';
import { apiKeysQuery } from './apiKeysApi';
import { ApiKeysSection } from './ApiKeysSection';
import { WebhooksSection } from './WebhooksSection';

/** `/developers`: API keys, webhooks and where the API reference is, for people who build on Leadforge. */
export function DevelopersPage() {
  const keys = useQuery(apiKeysQuery).data;
  const origin = window.location.origin;
  const prefix = keys?.[0]?.prefix;

  return (
    <div className="container page developers-page">
      <h1>Developers</h1>
      <p className="muted">
        Search for leads, follow searches and download exports from your own scripts, your CRM, Zapier or n8n.
        Every call is described in the <a href="/api/docs" target="_blank" rel="noopener">interactive API reference</a>{' '}
        (also as an <a href="/api/openapi.json" target="_blank" rel="noopener">OpenAPI 3.1 document</a>).
      </p>
      <ApiKeysSection />
      <section className="card api-quickstart" aria-labelledby="api-quickstart-heading">
        <h2 id="api-quickstart-heading">Try it with curl</h2>
        <p className="muted">
          {prefix
            ? <>Put your full key (the one starting <code>{prefix}</code>, shown once when you created it) in <code>LEADFORGE_KEY</code>:</>
            : <>Create a key above, then put it in <code>LEADFORGE_KEY</code>:</>}
        </p>
        <pre data-testid="curl-example" tabIndex={0}><code>{[
          `export LEADFORGE_KEY=${prefix ? `${prefix}…` : 'lf_…'}`,
          `curl -s ${origin}/api/lead-searches \\`,
          '  -H "X-API-Key: $LEADFORGE_KEY" -H "content-type: application/json" \\',
          '  -d \'{"industry": "Dentists", "location": "London", "quantity": 25}\'',
          `curl -s ${origin}/api/lead-searches -H "X-API-Key: $LEADFORGE_KEY"`,
        ].join('\n')}</code></pre>
        <p className="muted">Each key may make 120 requests a minute. <a href="/api/docs" target="_blank" rel="noopener">Open the API reference</a></p>
      </section>
      <WebhooksSection />
    </div>
  );
}
