import type { MessagePort } from 'node:worker_threads';
import {
  findFrames, findNavigationLinks, findScoredContactPages, loadHtml, PageTooDeep, readPageContacts, type CountryCode, type PageContacts,
  type ScoredPage,
} from '../extract/index.ts';
import { summariseHtml, type HtmlSummary } from './htmlSummary.ts';

/** What the main thread asks a parsing worker for. */
export type PageTask =
  | { kind: 'home'; url: string; html: string; country?: CountryCode; contactPages: number }
  | { kind: 'page'; html: string; country?: CountryCode }
  | { kind: 'summary'; url: string; status: number; html: string };

export interface HomeReading {
  contacts: PageContacts;
  /** Same-site contact, legal and about pages it links to, best first. */
  contactPages: ScoredPage[];
  /** Same-site frame and iframe sources. */
  frames: string[];
  /** Same-site first-level links, navigation first: where to look when no link names a contact or legal page (empty when one does). */
  navigation: string[];
}

// A site whose home page names no contact page is read two links deep through at most this many.
const FIRST_LEVEL_LINKS = 3;
const FRAMES = 3;

export type PageResult = HomeReading | PageContacts | HtmlSummary | null;

/** A page nested past the bound comes back as a value: an error's class does not cross threads. */
export type PageOutcome = { ok: true; value: PageResult } | { ok: false; tooDeep: number };

export interface PageJob {
  task: PageTask;
  maxDepth: number;
  /** Told when this worker starts the job, so its time budget leaves out the wait in the queue. */
  started: MessagePort;
}

/** Runs in a worker thread of the parsing pool (piscina loads this file). */
export default function runPageJob({ task, maxDepth, started }: PageJob): PageOutcome {
  started.postMessage(null);
  try {
    const $ = loadHtml(task.html, maxDepth);
    switch (task.kind) {
      case 'home': {
        const contactPages = findScoredContactPages(task.url, $, task.contactPages);
        // First-level links only matter to a page that names no contact or legal page.
        const named = contactPages.some((page) => page.score >= 2);
        return {
          ok: true,
          value: {
            contacts: readPageContacts($, task.country),
            contactPages,
            frames: findFrames(task.url, $, FRAMES),
            navigation: named ? [] : findNavigationLinks(task.url, $, FIRST_LEVEL_LINKS + task.contactPages),
          },
        };
      }
      case 'page':
        return { ok: true, value: readPageContacts($, task.country) };
      case 'summary':
        return { ok: true, value: summariseHtml(task.url, task.status, $) };
    }
  } catch (error) {
    if (error instanceof PageTooDeep) return { ok: false, tooDeep: error.maxDepth };
    throw error;
  }
}
