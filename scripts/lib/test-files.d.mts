/** The test files (relative to root, with `/` separators) that never read the run's database target. */
export function engineFreeFiles(root?: string): string[];
