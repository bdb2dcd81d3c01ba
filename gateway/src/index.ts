export * from './gateway.ts';
export * from './securityHeaders.ts';
