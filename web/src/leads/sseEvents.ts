export interface SseEvent {
  id: string | null;
  event: string;
  data: string;
}

/**
 * Splits Server-Sent Events text into complete events (the spec's format: `field: value` lines, a
 * blank line ends an event, `:` lines are comments). Returns the events and the unfinished rest.
 */
export function takeSseEvents(buffer: string): { events: SseEvent[]; rest: string } {
  const normalised = buffer.replace(/\r\n?/g, '\n');
  const blocks = normalised.split('\n\n');
  const rest = blocks.pop() ?? '';
  const events: SseEvent[] = [];
  for (const block of blocks) {
    let id: string | null = null;
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (!line || line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') id = value;
      else if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (data.length) events.push({ id, event, data: data.join('\n') });
  }
  return { events, rest };
}
