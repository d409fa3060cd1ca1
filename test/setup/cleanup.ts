import { afterAll } from 'vitest';
import { runFileCleanups } from '../helpers/cleanup.js';

// Registered while the file is collected, so it runs (test/helpers/cleanup.ts says why).
afterAll(runFileCleanups);
