import { configure } from '@testing-library/react';
// jsdom lays nothing out, which Fluent's focus manager reads as a hidden frame: a dialog closed by
// unmounting it left the page aria-hidden (see the module).
import '@mailroom/mf-contract/jsdom-layout';

// Two shared cores: the first render of Fluent UI trees can take longer than Testing Library's 1 s.
configure({ asyncUtilTimeout: 5000 });
