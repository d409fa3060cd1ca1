import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// Built into web/dist and served by the API process at /dashboard (assets under
// /dashboard/assets); the same bundle renders the public /track/:n and /redeem pages.
export default defineConfig({
  root: import.meta.dirname,
  base: '/dashboard/',
  plugins: [react()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // The polyfill is the one piece Vite may inline; modern Chromium/Firefox/Safari need none,
    // and the CSP allows no inline script.
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
  },
  // `npx vite web` during development: the API runs on :3000 (npm start).
  server: { proxy: { '/api': 'http://localhost:3000' } },
});
