import { fileURLToPath } from 'node:url';
import { createRspackConfig } from '@mailroom/rspack-config';

export default createRspackConfig({
  name: 'mfe_audiences',
  dir: fileURLToPath(new URL('.', import.meta.url)),
  port: 3101,
  title: 'Mailroom: Audiences (standalone)',
  exposes: { './App': './src/App.tsx' },
});
