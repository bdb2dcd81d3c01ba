// Preloaded into every product process a test starts (NODE_OPTIONS=--import <this file>: a V8 flag cannot
// go in NODE_OPTIONS itself, nor on a test worker's command line, whose worker threads refuse it), and a
// setup file of every test worker. A product a test starts lives for seconds: V8's optimising compilers
// (TurboFan, for JavaScript and for the embedded databases' WebAssembly) spent about 3 s of the 11.5 s of
// CPU a start and stop cost here, on code that then ran a few more times before the process ended. With
// tier-up budgets ten times V8's, code that stays hot is still optimised, and a start and stop costs
// 8.5 s (bench/results/testRun.md has the figures). Tests only: the product runs with V8's own budgets.
import v8 from 'node:v8';

const LATER = 10;
v8.setFlagsFromString(`--interrupt-budget=${67_584 * LATER}`);
v8.setFlagsFromString(`--wasm-tiering-budget=${1_800_000 * LATER}`);
