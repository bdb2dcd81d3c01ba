export * from './bus/bus.ts';
export * from './bus/createBus.ts';
export { createMemoryBus } from './bus/memoryBus.ts';
export * from './outbox/outbox.ts';
export * from './consumer/eventConsumer.ts';
export * from './consumer/deadLetters.ts';
export * from './parkedWork.ts';
export * from './parkedWorkCommand.ts';
export * from './payerKeys.ts';
