import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';

/** The SPA needs only itself, PayPal's checkout and Google's reCAPTCHA. */
export const CSP_DIRECTIVES = {
  defaultSrc: ["'self'"],
  scriptSrc: ["'self'", 'https://www.paypal.com', 'https://*.paypal.com', 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  frameSrc: ["'self'", 'https://www.paypal.com', 'https://*.paypal.com', 'https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  connectSrc: ["'self'", 'https://*.paypal.com', 'https://www.google.com/recaptcha/'],
  imgSrc: ["'self'", 'data:', 'https://*.paypal.com', 'https://www.paypalobjects.com', 'https://www.gstatic.com/recaptcha/'],
  // PayPal's and reCAPTCHA's widgets set inline styles.
  styleSrc: ["'self'", "'unsafe-inline'"],
  fontSrc: ["'self'", 'data:'],
  objectSrc: ["'none'"],
  baseUri: ["'self'"],
  formAction: ["'self'", 'https://www.paypal.com'],
  frameAncestors: ["'none'"],
};

export async function registerSecurityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: { useDefaults: false, directives: { ...CSP_DIRECTIVES, upgradeInsecureRequests: null } },
    // PayPal's popup checkout talks back to its opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    crossOriginEmbedderPolicy: false,
    hsts: false,
  });
}
