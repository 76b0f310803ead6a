import { fileURLToPath } from 'node:url';
import { createRspackConfig } from '@mailroom/rspack-config';

export default createRspackConfig({
  name: 'mfe_campaigns',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  port: 3103,
  title: 'Mailroom: Campaigns (standalone)',
  exposes: { './App': './src/App.tsx' },
});
