export * from './networkGuard.ts';
export * from './guardedConnector.ts';
export * from './outboundErrors.ts';
