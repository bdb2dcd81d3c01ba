export * from './gateway.ts';
export * from './securityHeaders.ts';
export * from './config.ts';
