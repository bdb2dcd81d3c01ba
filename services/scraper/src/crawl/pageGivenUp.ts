export type GiveUpReason = 'too_deep' | 'timeout' | 'failed';

/** A page the parsing pool gave up on: nothing of it is read; the rest of the site still counts. */
export class PageGivenUp extends Error {
  constructor(readonly reason: GiveUpReason, readonly url: string, message: string) {
    super(message);
    this.name = 'PageGivenUp';
  }
}
