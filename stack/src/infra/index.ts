export * from './prerequisites.ts';
export * from './postgresServer.ts';
export * from './redisServer.ts';
