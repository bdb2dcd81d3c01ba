import { createRequire } from 'node:module';

// kafkajs 2.2.4, its last release, re-arms a timer on every broker connection about every
// millisecond while nothing waits to be sent (tulios/kafkajs#1556 and #1704; the fix of #1667 is
// unmerged): an idle service spent 2.5-3 s of CPU a minute on it. This applies that fix to the
// request queue: with nothing pending and no throttle, no timer. A request pushed later, or a response
// that frees a slot, checks the queue again, so nothing pending is ever left unchecked.

const require = createRequire(import.meta.url);
/** The one release whose `scheduleCheckPendingRequests` is replaced here; another is left as it is. */
export const PATCHED_KAFKAJS_VERSION = '2.2.4';
/** kafkajs's own pause before it looks again at requests it could not send yet (its CHECK_PENDING_REQUESTS_INTERVAL). */
const CHECK_PENDING_REQUESTS_INTERVAL_MS = 10;

interface RequestQueue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: NodeJS.Timeout | null;
  checkPendingRequests(): void;
  scheduleCheckPendingRequests(): void;
}

export const installedKafkajsVersion: string = require('kafkajs/package.json').version;
export const RequestQueueClass: { prototype: RequestQueue } = require('kafkajs/src/network/requestQueue/index.js');

if (installedKafkajsVersion === PATCHED_KAFKAJS_VERSION) {
  RequestQueueClass.prototype.scheduleCheckPendingRequests = function scheduleCheckPendingRequests(this: RequestQueue) {
    if (this.throttleCheckTimeoutId) return;
    const untilUnthrottled = this.throttledUntil - Date.now();
    if (!this.pending.length && untilUnthrottled <= 0) return;
    const delay = untilUnthrottled > 0 ? untilUnthrottled : CHECK_PENDING_REQUESTS_INTERVAL_MS;
    this.throttleCheckTimeoutId = setTimeout(() => {
      this.throttleCheckTimeoutId = null;
      this.checkPendingRequests();
    }, delay);
  };
}
