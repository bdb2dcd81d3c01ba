import fs from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Seconds of a worker a file takes, roughly, by where it lives (the slowest files and the CPU by folder
 * that `npm test` prints): what decides the order, not a limit. The first match counts.
 */
const WEIGHTS: Array<[RegExp, number]> = [
  [/^test\/distributed\/product\.test\.ts$/, 480],
  [/^test\/faults\//, 150],
  [/\.kafka[^/]*\.test\.ts$/, 60],
  [/^test\/(browser|edge|distributed)\//, 50],
  [/^test\/system\//, 40],
  [/^stack\/test\//, 30],
  [/^test\/cluster\//, 20],
];

/** Files that start the production shape (Kafka, PostgreSQL, Envoy and a process or container a service). */
const PRODUCTION_SHAPE = /^test\/(distributed|faults)\//;
/** Other files a worker takes between two of those, so that two shapes seldom start side by side. */
const SHAPE_SPACING = 6;

/**
 * vitest.config.ts's projects in the order their files are handed out, each as one block: a worker that
 * keeps its modules goes on in the same process only while the next file in the queue is of its project.
 */
const BLOCKS = ['isolated', 'product', 'workspaces'];
const PRODUCT = BLOCKS.indexOf('product');

/**
 * The order in which the run's workers take the files. First the few that replace a module (the
 * `isolated` project), then the product's (the `product` project), longest first by their last run's
 * time here or else by the guesses above, so that the run does not end on one long file with the other
 * core idle (vitest's own order for files it has no times for, every file in a clean clone, is by
 * size), the files that start a production shape spaced out: each takes both cores while it starts.
 * Then the workspaces' files, longest first.
 */
export class HeavyFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const keyed = files.map((spec) => {
      const file = path.relative(root, spec.moduleId);
      const block = BLOCKS.indexOf(spec.project.name);
      // What an earlier run here took (vitest's cache, none in a clean clone), else the guess above.
      const lastMs = this.ctx.cache.getFileTestResults(`${spec.project.name}:${file}`)?.duration;
      const weight = lastMs !== undefined ? lastMs / 1000 : WEIGHTS.find(([pattern]) => pattern.test(file))?.[1] ?? 1;
      return { spec, file, block, weight, size: fs.statSync(spec.moduleId).size };
    });
    keyed.sort((a, b) => a.block - b.block || b.weight - a.weight || b.size - a.size);

    const ordered: typeof keyed = [];
    const shapes = keyed.filter(({ file }) => PRODUCTION_SHAPE.test(file));
    let sinceShape = SHAPE_SPACING;
    for (const entry of keyed.filter(({ file }) => !PRODUCTION_SHAPE.test(file))) {
      if (entry.block === PRODUCT && shapes.length > 0 && sinceShape >= SHAPE_SPACING && entry.weight <= shapes[0].weight) {
        ordered.push(shapes.shift()!);
        sinceShape = 0;
      }
      ordered.push(entry);
      sinceShape++;
    }
    // Any left (few other files): after the rest of the product's, before the workspaces'.
    const firstWorkspace = ordered.findIndex(({ block }) => block > PRODUCT);
    ordered.splice(firstWorkspace < 0 ? ordered.length : firstWorkspace, 0, ...shapes);
    return ordered.map(({ spec }) => spec);
  }
}
