export * from './startStack.ts';
export * from './services.ts';
export * from './freePort.ts';
export * from './infra/index.ts';
