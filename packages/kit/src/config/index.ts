export * from './environment.ts';
export * from './kitConfig.ts';
export * from './kafkaConfig.ts';
