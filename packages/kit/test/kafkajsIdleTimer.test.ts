import { describe, expect, it } from 'vitest';
import { installedKafkajsVersion, PATCHED_KAFKAJS_VERSION, RequestQueueClass } from '../src/events/bus/kafkajsIdleTimer.ts';

const silent = { debug() {}, info() {}, warn() {}, error() {} };
const newQueue = () => new (RequestQueueClass as unknown as new (options: object) => any)({
  maxInFlightRequests: 1, requestTimeout: 30_000, enforceRequestTimeout: true, clientId: 'test', broker: '127.0.0.1:9', logger: silent,
});

describe("kafkajs's request queue", () => {
  it('is the release the idle-timer fix was written for (an upgrade must look again at kafkajsIdleTimer.ts)', () => {
    expect(installedKafkajsVersion).toBe(PATCHED_KAFKAJS_VERSION);
  });

  it('arms no timer when nothing is pending and nothing throttles it, and one when either holds', () => {
    const idle = newQueue();
    idle.checkPendingRequests();
    expect(idle.throttleCheckTimeoutId).toBeNull();

    const throttled = newQueue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.scheduleCheckPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(throttled.throttleCheckTimeoutId);

    const waiting = newQueue();
    waiting.pending.push({});
    waiting.scheduleCheckPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();
    clearTimeout(waiting.throttleCheckTimeoutId);
  });
});
