import { fileURLToPath } from 'node:url';
import { createRspackConfig } from '@mailroom/rspack-config';

export default createRspackConfig({
  name: 'mfe_templates',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  port: 3102,
  title: 'Mailroom: Templates (standalone)',
  exposes: { './App': './src/App.tsx' },
});
