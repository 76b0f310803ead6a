import { configure } from '@testing-library/react';
// jsdom lays nothing out, which Fluent's focus manager reads as a hidden frame (see the module).
import '@mailroom/mf-contract/jsdom-layout';

// The machine is shared and Fluent's modules are many: give the queries time.
configure({ asyncUtilTimeout: 3000 });
