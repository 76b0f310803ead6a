import { fileURLToPath } from 'node:url';
import { createRspackConfig } from '@mailroom/rspack-config';

export default createRspackConfig({
  name: 'shell',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  port: 8080,
  isHost: true,
  title: 'Mailroom',
  // The page oidc-client-ts loads in a hidden iframe for the silent sign-in check and token renewal.
  extraPages: { 'silent-check-sso': './src/silent-check-sso.ts' },
  favicon: 'favicon.ico',
});
