// The standalone development page; inside the product the shell loads './App' instead.
import { mountStandalone } from '@mailroom/mf-contract/harness';
import App from './App';

mountStandalone(App, '/audiences');
