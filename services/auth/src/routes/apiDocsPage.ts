/**
 * The interactive reference at /api/docs: swagger-ui (the `swagger-ui-dist` package) served from our
 * own origin. Its start-up is a file, not an inline script, so the product's CSP (`script-src 'self'`)
 * holds; `validatorUrl: null` keeps it from sending the document to swagger.io's validator.
 */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Leadforge API reference</title>
<link rel="stylesheet" href="/api/docs/swagger-ui.css">
</head>
<body>
<nav aria-label="Leadforge" class="leadforge-docs-nav"><a href="/">← Back to Leadforge</a> · <a href="/developers">Your API keys</a></nav>
<main id="docs"></main>
<script src="/api/docs/swagger-ui-bundle.js"></script>
<script src="/api/docs/leadforge-docs.js"></script>
</body>
</html>
`;

export const DOCS_START_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/api/openapi.json',
    dom_id: '#docs',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: true,
    persistAuthorization: false,
  });
});
`;
