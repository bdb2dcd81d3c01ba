import type { ServiceDefinition } from '@leadforge/kit';
import authService from '@leadforge/auth';

/** Every service of the local stack. Adding a service is one line here. */
export const SERVICE_DEFINITIONS: ServiceDefinition[] = [authService];
