import type { ServiceDefinition } from '@leadforge/kit/service';
import authService from '@leadforge/auth';
import billingService from '@leadforge/billing';
import affiliateService from '@leadforge/affiliate';
import contactService from '@leadforge/contact';
import adminService from '@leadforge/admin';
import scraperService from '@leadforge/scraper';
import leadsService from '@leadforge/leads';

/** Every service of the local stack. Adding a service is one line here. */
export const SERVICE_DEFINITIONS: ServiceDefinition[] = [authService, billingService, affiliateService, contactService, adminService, scraperService, leadsService];
