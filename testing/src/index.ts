export * from './waitFor.ts';
export * from './testDatabase.ts';
export * from './serviceUnderTest.ts';
export * from './testKafka.ts';
export * from './testServers.ts';
export * from './asyncRequestListener.ts';
export * from './mailbox.ts';
