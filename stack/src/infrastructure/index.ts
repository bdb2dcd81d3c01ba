export * from './prerequisites.ts';
export * from './postgresServer.ts';
export * from './redisServer.ts';
export * from './envoyProxy.ts';
export * from './webServer.ts';
export * from './kafkaBroker.ts';
export * from './prometheusServer.ts';
