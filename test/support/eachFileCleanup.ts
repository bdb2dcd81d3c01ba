// A vitest setup file: after each test file's own hooks have stopped its products, their data folders go.
import { afterAll } from 'vitest';
import { removeDataDirsOfThisFile } from './dataTemplate.ts';

afterAll(() => removeDataDirsOfThisFile());
