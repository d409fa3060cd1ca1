// Builds the publishable package: ESM JavaScript plus .d.ts in dist/ (tsc), and the generated
// schema.d.ts copied beside them (tsc does not copy declaration-only inputs). Run by `npm pack`
// (prepack) and `npm run build` here; needs the repository's TypeScript (no network).
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = import.meta.dirname;
const require = createRequire(import.meta.url);
rmSync(path.join(here, 'dist'), { recursive: true, force: true });
const tsc = require.resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(here, 'tsconfig.build.json')], { stdio: 'inherit' });
copyFileSync(path.join(here, 'src/schema.d.ts'), path.join(here, 'dist/schema.d.ts'));
