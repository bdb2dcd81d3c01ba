export * from './embedded/startStack.ts';
export * from './services.ts';
export * from './freePort.ts';
export * from './infrastructure/index.ts';
