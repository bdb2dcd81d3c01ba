import { describe, expect, it } from 'vitest';
import { takeSseEvents } from './sseEvents';

describe('takeSseEvents', () => {
  it('reads complete events and keeps the unfinished rest for the next chunk', () => {
    const first = takeSseEvents('retry: 2000\n\nid: 1\nevent: progress\ndata: {"a":1}\n\nid: 2\nevent: le');
    expect(first.events).toEqual([{ id: '1', event: 'progress', data: '{"a":1}' }]);
    const second = takeSseEvents(`${first.rest}ads\ndata: {"b":2}\n\n: keep-alive\n\n`);
    expect(second.events).toEqual([{ id: '2', event: 'leads', data: '{"b":2}' }]);
    expect(second.rest).toBe('');
  });

  it('joins multi-line data and accepts CRLF line ends', () => {
    expect(takeSseEvents('data: a\r\ndata: b\r\n\r\n').events).toEqual([{ id: null, event: 'message', data: 'a\nb' }]);
  });
});
