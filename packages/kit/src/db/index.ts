export * from './database.ts';
export * from './migrations.ts';
export * from './transactionLock.ts';
