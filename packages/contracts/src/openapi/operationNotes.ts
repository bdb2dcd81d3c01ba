/**
 * What the schemas cannot say: a summary and examples for the calls integrations use most, and the
 * answers that are not JSON (files, streams, pages). Keyed by route name (`METHOD /path`).
 */
interface OperationNote {
  summary: string;
  description?: string;
  examples?: { request?: unknown; response?: unknown };
}

const SEARCH_EXAMPLE = {
  id: '0193a1c0-7d2e-7c4a-9a51-2f4b8d6e1a10', industry: 'Dentists', location: 'London', quantity: 25, status: 'running',
  reason: null, error: null, leads_count: 0, credits_used: 0, created_at: '2026-11-24T11:19:40.000Z', finished_at: null,
};

export const OPERATION_NOTES: Record<string, OperationNote> = {
  'POST /api/auth/register': { summary: 'Create an account', examples: { request: { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct-horse' } } },
  'POST /api/auth/login': { summary: 'Sign in (a session token)', examples: { request: { email: 'ada@example.com', password: 'correct-horse' } } },
  'GET /api/auth/me': { summary: 'Who is calling, and their credit balance' },
  'PATCH /api/auth/me': { summary: 'Change your name, or whether a finished search is emailed to you' },
  'POST /api/auth/password': { summary: 'Change your password (the current one is required)' },
  'GET /api/account/export': { summary: 'Download everything Leadforge holds about you (JSON)' },
  'DELETE /api/account': { summary: 'Delete your account and erase your data' },
  'POST /api/auth/password-reset': { summary: 'Email a password reset link' },
  'POST /api/auth/password-reset/confirm': { summary: 'Set a new password with the link\'s token' },
  'POST /api/auth/verify-email': { summary: 'Confirm your email address with the link\'s token (ADMIN_EMAILS addresses become admins here)' },
  'GET /api/payments/config': { summary: 'How checkout runs here: PayPal (sandbox or live) or the test checkout' },
  'GET /api/payments/balance': { summary: 'Your credit balance, from the ledger' },
  'GET /api/payments/history': { summary: 'Your purchases, newest first' },
  'GET /api/payments/credit-activity': { summary: 'Your credits bought and used per UTC day, from the ledger (the dashboard charts)' },
  'POST /api/payments/create': { summary: 'Start buying a credit pack (a PayPal order)' },
  'POST /api/payments/execute': { summary: 'Complete an approved purchase; its credits are added' },
  'POST /api/payments/create-order': { summary: 'Start the CBC promo purchase (before an account exists)' },
  'POST /api/payments/complete-payment': { summary: 'Complete an approved CBC promo purchase' },
  'POST /api/payments/webhook': { summary: 'PayPal\'s payment notifications (called by PayPal)' },
  'POST /api/payments/purchases/:purchaseId/refund-request': {
    summary: 'Ask for the 7-day refund of a purchase',
    description: 'Refunded at once when none of the pack\'s credits were used; otherwise an administrator decides. One request per purchase.',
    examples: { request: { reason: 'I bought the wrong pack' } },
  },
  'GET /api/payments/promo-orders/:orderId': { summary: 'Whether a paid CBC promo order was claimed by your account' },
  'POST /api/payments/test-checkout/:orderId/approve': { summary: 'Approve an order in the built-in test checkout (no money moves)' },
  'POST /api/opt-out': { summary: 'Ask to leave an email, phone or website out of Leadforge (an email is confirmed by a mailed link, the rest checked by an administrator)' },
  'POST /api/opt-out/confirm': { summary: 'Confirm an email opt-out with the mailed link\'s token' },
  'POST /api/monitors': { summary: 'Create a monitor: a search that runs again on a schedule' },
  'GET /api/monitors': { summary: 'Your monitors' },
  'GET /api/monitors/:id': { summary: 'One monitor with its schedule and last run' },
  'PATCH /api/monitors/:id': { summary: 'Change, pause or resume a monitor' },
  'DELETE /api/monitors/:id': { summary: 'Delete a monitor (its past searches stay)' },
  'POST /api/monitors/:id/run': { summary: 'Run a monitor now' },
  'GET /api/monitors/:id/runs': { summary: 'A monitor\'s runs, newest first' },
  'GET /api/affiliate/stats': { summary: 'Your referral link, referrals and commissions earned' },
  'GET /api/affiliate/commissions': { summary: 'Your commissions, their totals and the next payout' },
  'POST /api/affiliate/apply': { summary: 'Apply to the affiliate programme (optional: every account already earns through its link)' },
  'PUT /api/affiliate/payout-email': { summary: 'Set the PayPal address your commissions are paid to' },
  'POST /api/affiliate/referral-visits': { summary: 'Record a visit through a referral link (a signed referral token)' },
  'POST /api/contact': { summary: 'Send a message to the Leadforge team' },
  'GET /api/contact/config': { summary: 'Which robot check the contact form uses' },
  'POST /api/api-keys': {
    summary: 'Create an API key (its secret is in this answer only)',
    examples: {
      request: { name: 'CRM sync', expires_in_days: 90 },
      response: { id: '0193a1b2-3c4d-7e5f-8a9b-0c1d2e3f4a5b', name: 'CRM sync', prefix: 'lf_Xq3v9TzA', key: 'lf_Xq3v9TzA...', created_at: '2026-11-24T11:00:00.000Z', expires_at: '2027-02-22T11:00:00.000Z' },
    },
  },
  'GET /api/api-keys': { summary: 'Your live API keys (never their secrets)' },
  'DELETE /api/api-keys/:id': { summary: 'Revoke an API key; it stops working at once' },
  'POST /api/lead-searches': {
    summary: 'Start a lead search (answers at once; follow it by its id or its events)',
    examples: { request: { industry: 'Dentists', location: 'London', quantity: 25 }, response: SEARCH_EXAMPLE },
  },
  'POST /api/generate-leads': {
    summary: 'Run a lead search and wait for its leads',
    examples: { request: { industry: 'Dentists', location: 'London', quantity: 10 } },
  },
  'GET /api/lead-searches': { summary: 'Your searches, newest first (history)' },
  'GET /api/locations': { summary: 'The places a typed location may mean, to pick one before searching' },
  'GET /api/locations/estimate': { summary: 'About how many businesses of an industry a place has, when a source can count them cheaply' },
  'GET /api/places-status': { summary: 'Whether the business directory answered when the product started' },
  'GET /api/lead-searches/:id': { summary: 'One search with its stats and every lead' },
  'DELETE /api/lead-searches/:id': { summary: 'Cancel a running search (its delivered leads are kept and charged)' },
  'GET /api/lead-searches/:id/events': {
    summary: 'The live feed of a search (Server-Sent Events)',
    description: 'Events `progress`, `leads` and `finished`, each with an `id:`; reconnect with `Last-Event-ID` (or `?last_event_id=`) to resume. The stream ends after `finished`.',
  },
  'GET /api/lead-searches/:id/export.csv': { summary: 'Download the leads as CSV (all, the selected ones, or those a filter shows)' },
  'GET /api/lead-searches/:id/export.json': { summary: 'Download the search and its leads as JSON (all, the selected ones, or those a filter shows)' },
  'GET /api/lead-searches/:id/export.xlsx': { summary: 'Download the leads as an Excel workbook (all, the selected ones, or those a filter shows)' },
  'GET /api/lead-activity': { summary: 'Your searches and their leads (with email, phone, deliverable email) per UTC day (the dashboard charts)' },
  'GET /api/lead-stats': { summary: "What the last 30 days of the product's searches measured (speed, email verdicts)" },
  'GET /api/scrape/status': { summary: 'Whether the engine fetches pages through a proxy' },
  'POST /api/webhooks': { summary: 'Register a webhook endpoint (its signing secret is in this answer only)', examples: { request: { url: 'https://example.com/hooks/leadforge', events: ['lead_search.completed', 'lead_search.failed'] } } },
  'GET /api/webhooks': { summary: 'Your webhook endpoints (never their secrets)' },
  'DELETE /api/webhooks/:id': { summary: 'Remove a webhook endpoint' },
  'GET /api/webhooks/:id/deliveries': { summary: 'The latest delivery attempts of an endpoint' },
  'POST /api/webhooks/:id/test': { summary: 'Send a test event to an endpoint now' },
  'GET /api/openapi.json': { summary: 'This document' },
  'GET /api/docs': { summary: 'The interactive API reference (HTML)' },
  'GET /api/docs/:file': { summary: 'A file of the interactive reference (script or style sheet)' },
};

/** Answers that are not JSON bodies of a registered response schema. */
export const RAW_RESPONSES: Record<string, { description: string; types: string[]; schema?: unknown }> = {
  'GET /api/lead-searches/:id/events': {
    description: 'A Server-Sent Events stream: `progress`, `leads` and `finished` events, each `data` a JSON object',
    types: ['text/event-stream'],
    schema: {
      type: 'object',
      required: ['data'],
      properties: {
        event: { enum: ['progress', 'leads', 'finished'] },
        id: { type: 'string' },
        data: { type: 'string', contentMediaType: 'application/json' },
      },
    },
  },
  'GET /api/lead-searches/:id/export.csv': { description: 'A CSV file (UTF-8 with BOM)', types: ['text/csv'] },
  'GET /api/lead-searches/:id/export.json': { description: 'A JSON file: `{search, leads}`', types: ['application/json'], schema: { type: 'object', required: ['search', 'leads'], properties: { search: { type: 'object' }, leads: { type: 'array', items: { type: 'object' } } } } },
  'GET /api/lead-searches/:id/export.xlsx': { description: 'An Excel workbook', types: ['application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'] },
  'GET /api/openapi.json': { description: 'An OpenAPI 3.1 document', types: ['application/json'], schema: { type: 'object', required: ['openapi', 'paths'] } },
  'GET /api/docs': { description: 'An HTML page', types: ['text/html'] },
  'GET /api/docs/:file': { description: 'A script or style sheet', types: ['application/javascript', 'text/css'] },
  'GET /api/account/export': { description: 'Everything Leadforge keeps about you, as a JSON file', types: ['application/json'], schema: { type: 'object' } },
};
