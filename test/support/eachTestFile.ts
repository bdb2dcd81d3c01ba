// Runs before every test file (vitest.config.ts setupFiles). A test worker runs its files one after
// another in one process and keeps the modules they loaded (isolate: false), so what a process holds
// once is made fresh for each file here: the in-process bus, whose events a file's services would
// otherwise replay from the files before it.
import { forgetSharedMemoryBus } from '@leadforge/kit';

forgetSharedMemoryBus();
