import fs from 'node:fs';

/** The time a service decides expiries and holds by: the machine's, or ahead of it by what CLOCK_FILE says. */
export type Clock = () => Date;

/**
 * The machine's clock, ahead by the number of milliseconds in `file` when one is given (CLOCK_FILE):
 * read at each use, so a test moves every replica's time by writing the file, never by waiting.
 * A missing or unreadable file means no offset.
 */
export function clockOf(file: string | undefined): Clock {
  if (!file) return () => new Date();
  return () => {
    let offsetMs = 0;
    try {
      offsetMs = Number(fs.readFileSync(file, 'utf8').trim()) || 0;
    } catch {
      offsetMs = 0;
    }
    return new Date(Date.now() + offsetMs);
  };
}
