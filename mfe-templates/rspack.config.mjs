import { fileURLToPath } from 'node:url';
import { REMOTES } from '@mailroom/mf-contract/remotes';
import { createRemoteRspackConfig } from '@mailroom/rspack-config';

export default createRemoteRspackConfig(REMOTES.templates, fileURLToPath(new URL('.', import.meta.url)));
