import { fileURLToPath } from 'node:url';
import { createRspackConfig } from '@mailroom/rspack-config';

export default createRspackConfig({
  name: 'mfe_reports',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  port: 3104,
  title: 'Mailroom: Campaign report (standalone)',
  exposes: { './App': './src/App.tsx' },
});
