export * from './backoff.ts';
export * from './deadline.ts';
export * from './workLoop.ts';
export * from './leasedQueue.ts';
export * from './queueMetrics.ts';
export * from './clock.ts';
